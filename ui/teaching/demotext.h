#pragma once
// The words of the demonstrations (core/demonstrations.h measures, this writes): each one's title
// and claim, the label and note of every figure it measured, its conclusion, the extrapolation
// verdicts and the comparison table's cells. Translatable: the titles and claims are
// QT_TRANSLATE_NOOP entries and every sentence goes through DemoText::tr (context "DemoText",
// resources/translations/poslab_*.ts).
#include "core/demonstrations.h"

#include <QCoreApplication>
#include <QString>

#include <vector>

namespace poslab::ui {

// The translation context of the demonstrations' words.
class DemoText {
    Q_DECLARE_TR_FUNCTIONS(DemoText)
};

QString demoTitle(DemoId id);   // for menus and slide titles
QString demoClaim(DemoId id);   // the sentence the numbers show

struct DemoFigureText {
    QString label;   // "max |out(shuffled) − shuffled(out)|, no positions"
    QString note;    // "≈ 0: outputs shuffle with the tokens" (may be empty)
};
// The words of a summary: one DemoFigureText per figure, in the summary's order, and the
// conclusion (which depends on whether the claim held and on the numbers).
struct DemoTexts {
    std::vector<DemoFigureText> figures;
    QString conclusion;
};
DemoTexts describeDemo(const DemoSummary& s);

// An extrapolation row's verdict ("defined: the bias keeps falling linearly …") for the input it
// was computed with.
QString extrapolationVerdict(const ExtrapolationRow& row, const ExtrapolationInput& in);

// The comparison table's words: a column's title and a cell's text.
QString comparisonColumnTitle(TableColumn c);
QString comparisonCellText(Method m, TableColumn c, const TableCell& cell);

}  // namespace poslab::ui
