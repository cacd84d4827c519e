// TEMPORARY PLACEHOLDER: `poslab figure` is implemented by another helper, who replaces this
// file. Until then it reports that the command is not available.
#include "app/cli_figure.h"

#include <cstdio>

namespace poslab::cli {

int runFigure(const QStringList& /*args*/) {
    std::fputs("poslab: error: figure is not implemented yet\n", stderr);
    return 1;
}

}  // namespace poslab::cli
