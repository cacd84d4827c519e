#pragma once
// The catalogue of methods and their names as the command line, sessions and views use them.
#include "core/param.h"

#include <array>
#include <optional>
#include <string>
#include <string_view>

namespace poslab {

enum class Method { NoPE, Sinusoidal, Learned, Shaw, T5, TransformerXL, Alibi, Rope, Xpos };

inline constexpr std::array<Method, 9> kAllMethods = {
    Method::NoPE, Method::Sinusoidal, Method::Learned, Method::Shaw, Method::T5,
    Method::TransformerXL, Method::Alibi, Method::Rope, Method::Xpos};

template <>
struct EnumKeys<Method> {
    static constexpr std::array<EnumKey<Method>, 9> keys{{{Method::NoPE, "nope"},
                                                          {Method::Sinusoidal, "sinusoidal"},
                                                          {Method::Learned, "learned"},
                                                          {Method::Shaw, "shaw"},
                                                          {Method::T5, "t5"},
                                                          {Method::TransformerXL, "transformer-xl"},
                                                          {Method::Alibi, "alibi"},
                                                          {Method::Rope, "rope"},
                                                          {Method::Xpos, "xpos"}}};
};

// The key of the method's own parameter struct in ScoreParams, its sessions and its parameter
// table ("rope", "transformer_xl", ...); "" for NoPE, which has none.
std::string_view methodParamGroup(Method m);

// "nope", "sinusoidal", "learned", "shaw", "t5", "transformer-xl", "alibi", "rope", "xpos"
std::string_view methodKey(Method m);
// "NoPE (no position)", "Sinusoidal (absolute)", ... for people.
std::string_view methodTitle(Method m);
std::optional<Method> methodFromKey(std::string_view key);

// What a method does to attention, in one sentence (shown by views that have nothing to rotate).
std::string_view methodSummary(Method m);

// Whether the method rotates query/key pairs (RoPE, xPos, and sinusoidal's (sin, cos) points).
bool methodRotates(Method m);

}  // namespace poslab
