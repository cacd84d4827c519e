#pragma once
// Preconditions checked. A function's "Precondition:" comment states what its caller must
// guarantee; POSLAB_ENSURE(cond, message) at the function's entry checks it in the dev and asan
// builds (CMake option POSLAB_CHECK_PRECONDITIONS, set by those presets) and throws
// std::invalid_argument naming the function and the violated precondition, as Sophus's
// SOPHUS_ENSURE does. The release build (benchmarks, packages) compiles it to nothing: the checks
// are cheap ones (sizes, ranges) at entry, never per element in a hot loop, but they cost nothing
// there. A violated precondition is a bug of the caller, never bad input: input is validated and
// reported (validate(), Result) before it reaches a function with a precondition.
#include <stdexcept>
#include <string>

namespace poslab::detail {
[[noreturn]] inline void ensureFailed(const char* function, const char* condition, const std::string& message) {
    throw std::invalid_argument(std::string(function) + ": precondition violated: " + message + " (" + condition + ")");
}
}  // namespace poslab::detail

#ifdef POSLAB_CHECK_PRECONDITIONS
#define POSLAB_ENSURE(cond, message)                                           \
    do {                                                                       \
        if (!(cond)) ::poslab::detail::ensureFailed(__func__, #cond, message); \
    } while (false)
#else
// Not evaluated (sizeof), but still compiled: a check that stops compiling fails in every build.
#define POSLAB_ENSURE(cond, message) static_cast<void>(sizeof(!(cond)))
#endif
