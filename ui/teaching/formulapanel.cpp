#include "ui/teaching/formulapanel.h"

#include "core/alibi.h"
#include "core/learned.h"
#include "core/rope.h"
#include "core/rope_detail.h"
#include "core/scores.h"
#include "core/shaw.h"
#include "core/sinusoidal.h"
#include "core/t5.h"
#include "core/transformer_xl.h"
#include "core/xpos.h"
#include "ui/panel/controls.h"
#include "ui/model/results.h"
#include "ui/model/scene.h"
#include "ui/render/plot.h"
#include "ui/render/typeset.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFontMetricsF>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <QPointer>
#include <QScrollArea>
#include <QSpinBox>
#include <QThread>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <numbers>

namespace poslab::ui {

namespace {

QString num(double x, int digits = 4) { return formulaNumber(x, digits); }
// A number raised to a power: "(1 \times 10^{6})^{-2/128}", never "1 \times 10^{6}^{-2/128}"
// (drawn as 1 × 10^(−2/128): the exponent would seem to belong to the 10).
QString powerBase(double x) {
    const QString n = num(x);
    return n.contains(QLatin1Char('^')) ? QStringLiteral("\\left(%1\\right)").arg(n) : n;
}
QString numI(std::int64_t x) { return QString::number(x); }
// A number in a sheet's title (plain text, not TeX): "2.41 × 10⁷".
QString titleNumber(double x) { return QString::fromStdString(formatReadable(x, 4, NumberStyle::Typeset)); }
QString T(const char* s) { return QString::fromUtf8(s); }
constexpr double kTwoPi = 2.0 * std::numbers::pi;

double wrap2pi(double a) {
    double r = std::fmod(a, kTwoPi);
    if (r < 0) r += kTwoPi;
    return r;
}

struct Ctx {
    ScoreParams p;   // the configuration's parameters as the views use them (causal included), no softmax
    std::int64_t N = 1, m = 0, n = 0;
    int dim = 1;
    double s = 1;
    Matrix q, k;  // 1 × dim content rows at m and n
    std::optional<double> score;
    QString scoreError;
};

QString contentName(Content c) {
    switch (c) {
        case Content::Ones: return FormulaSheet::tr("ones");
        case Content::Random: return FormulaSheet::tr("random N(0,1)");
        case Content::Formula: return FormulaSheet::tr("formula");
    }
    return {};
}

// (q, k) channel pair c0, c1 → its two entries as a small column vector.
QString col(double a, double b) { return QStringLiteral("\\begin{pmatrix} %1 \\\\ %2 \\end{pmatrix}").arg(num(a), num(b)); }

// `expr` times the layer's score scale, typeset: \frac{expr}{\sqrt{d}}, or s·(expr) when the model
// has its own scale (Gemma 2/3's query_pre_attn_scalar, DeepSeek's mscale).
QString scaledTex(const Ctx& c, const QString& expr) {
    if (!c.p.attention.softmax_scale) return QStringLiteral("\\frac{%1}{\\sqrt{%2}}").arg(expr).arg(c.dim);
    return QStringLiteral("%1 \\cdot (%2)").arg(num(c.s), expr);
}

void scoreLine(FormulaSheet& sh, const Ctx& c, const QString& lhs) {
    if (c.score)
        sh.numbers.push_back({FormulaSheet::tr("score (heatmap cell, before softmax)"), lhs + QStringLiteral(" = ") + num(*c.score)});
    else
        sh.note = c.scoreError;
}

// ---------------------------------------------------------------- RoPE
// The scaling's definition and its numbers for pair i (the line ends with θ_i' = the scaled
// frequency). f: the frequencies the views use; f0: unscaled.
void ropeScalingLines(FormulaSheet& sh, const RopeParams& rp, const RopeFrequencies& f, const RopeFrequencies& f0, int i,
                      std::int64_t seqLen) {
    const int r = f.rotary_dim;
    const QString th = QStringLiteral("\\theta_{%1}").arg(i);
    const double factor = rp.resolvedFactor();
    const QString s = num(factor);
    switch (rp.scaling) {
        case RopeScaling::None: break;
        case RopeScaling::Linear:
            sh.definitions.push_back({FormulaSheet::tr("Linear interpolation: every frequency divided by the factor s"), T("\\theta_i' = \\frac{\\theta_i}{s}")});
            sh.numbers.push_back({FormulaSheet::tr("linear interpolation"), QStringLiteral("s = %1,\\quad %2' = \\frac{%3}{%1} = %4").arg(s, th, num(f0.inv_freq[i]), num(f.inv_freq[i]))});
            break;
        case RopeScaling::Dynamic: {
            const RopeDynamicBase db = ropeDynamicBase(rp, seqLen);
            sh.definitions.push_back({FormulaSheet::tr("Dynamic NTK: past L = max_position_embeddings a larger base, ℓ = max(sequence length, L)"),
                                      T("\\mathrm{base}' = \\mathrm{base} \\left(\\frac{s\\,\\ell}{L} - (s - 1)\\right)^{r/(r-2)}")});
            sh.numbers.push_back({FormulaSheet::tr("the sequence length and the factor"),
                                  QStringLiteral("\\ell = \\max(%1, L) = %2,\\quad L = %3,\\quad s = %4,\\quad r = %5")
                                      .arg(numI(seqLen), numI(db.length), numI(rp.max_positions), s, numI(r))});
            sh.numbers.push_back({FormulaSheet::tr("the new base"),
                                  QStringLiteral("\\mathrm{base}' = %1 \\left(\\frac{%2 \\cdot %3}{%4} - %5\\right)^{%6/%7} = %8")
                                      .arg(num(rp.base), s, numI(db.length), numI(rp.max_positions), num(factor - 1), numI(r), numI(r - 2),
                                           num(db.base))});
            sh.numbers.push_back({FormulaSheet::tr("frequency of pair %1 with the new base").arg(i),
                                  QStringLiteral("%1' = \\mathrm{base}'^{-%2/%3} = %4").arg(th, numI(2 * i), numI(r), num(f.inv_freq[i]))});
            break;
        }
        case RopeScaling::Yarn: {
            const RopeYarnRange range = ropeYarnCorrectionRange(rp);
            const std::int64_t L0 = rp.originalMaxPositions();
            const bool trunc = rp.truncate;
            sh.definitions.push_back({FormulaSheet::tr("YaRN: pairs below low keep θ_i, pairs above high are divided by s, a ramp γ_i between"),
                                      T("\\theta_i' = (1 - \\gamma_i)\\,\\theta_i + \\gamma_i \\frac{\\theta_i}{s},\\quad "
                                        "\\gamma_i = \\min\\left(\\max\\left(\\frac{i - \\mathrm{low}}{\\mathrm{high} - \\mathrm{low}}, 0\\right), 1\\right)")});
            sh.definitions.push_back({FormulaSheet::tr("Correction range: the pairs that turn β fast and β slow times in L₀ tokens"),
                                      trunc ? T("\\mathrm{low} = \\left\\lfloor \\frac{r \\ln(L_0 / 2\\pi\\beta_{\\mathrm{fast}})}{2 \\ln \\mathrm{base}} \\right\\rfloor,\\quad "
                                              "\\mathrm{high} = \\left\\lceil \\frac{r \\ln(L_0 / 2\\pi\\beta_{\\mathrm{slow}})}{2 \\ln \\mathrm{base}} \\right\\rceil")
                                          : T("\\mathrm{low} = \\frac{r \\ln(L_0 / 2\\pi\\beta_{\\mathrm{fast}})}{2 \\ln \\mathrm{base}},\\quad "
                                              "\\mathrm{high} = \\frac{r \\ln(L_0 / 2\\pi\\beta_{\\mathrm{slow}})}{2 \\ln \\mathrm{base}}")});
            const bool explicitC = rp.attention_factor.has_value();
            const bool mscale = !explicitC && rp.mscale.value_or(0.0) != 0.0 && rp.mscale_all_dim.value_or(0.0) != 0.0;
            if (explicitC)
                sh.definitions.push_back({FormulaSheet::tr("Attention factor c on cos and sin: given"), T("c = \\mathrm{attention\\_factor}")});
            else if (mscale)
                sh.definitions.push_back({FormulaSheet::tr("Attention factor c on cos and sin (mscale, mscale_all_dim)"),
                                          T("c = \\frac{0.1\\,\\mathrm{mscale} \\ln s + 1}{0.1\\,\\mathrm{mscale\\_all\\_dim} \\ln s + 1}")});
            else
                sh.definitions.push_back({FormulaSheet::tr("Attention factor c on cos and sin"), factor <= 1 ? T("c = 1 \\quad (s \\le 1)") : T("c = 0.1 \\ln s + 1")});
            sh.numbers.push_back({FormulaSheet::tr("the parameters"), QStringLiteral("s = %1,\\quad L_0 = %2,\\quad \\beta_{\\mathrm{fast}} = %3,\\quad \\beta_{\\mathrm{slow}} = %4,\\quad r = %5")
                                                            .arg(s, numI(L0), num(range.fastRotations), num(range.slowRotations), numI(r))});
            const QString lowExpr = QStringLiteral("\\frac{%1 \\ln(%2 / 2\\pi \\cdot %3)}{2 \\ln %4}").arg(numI(r), numI(L0), num(range.fastRotations), num(rp.base));
            const QString highExpr = QStringLiteral("\\frac{%1 \\ln(%2 / 2\\pi \\cdot %3)}{2 \\ln %4}").arg(numI(r), numI(L0), num(range.slowRotations), num(rp.base));
            sh.numbers.push_back({FormulaSheet::tr("correction range (clamped to 0 … r − 1)"),
                                  QStringLiteral("\\mathrm{low} = \\max\\left(%1, 0\\right) = %2,\\quad \\mathrm{high} = \\min\\left(%3, %4\\right) = %5")
                                      .arg(trunc ? QStringLiteral("\\left\\lfloor %1 \\right\\rfloor").arg(lowExpr) : lowExpr, num(range.low),
                                           trunc ? QStringLiteral("\\left\\lceil %1 \\right\\rceil").arg(highExpr) : highExpr, numI(r - 1), num(range.high))});
            // The ramp as ropeFrequencies applies it (upstream adds 0.001 when low == high).
            const double span = range.high == range.low ? 0.001 : range.high - range.low;
            const double gamma = std::clamp((double(i) - range.low) / span, 0.0, 1.0);
            sh.numbers.push_back({FormulaSheet::tr("pair %1 on the ramp").arg(i),
                                  QStringLiteral("\\gamma_{%1} = %2,\\quad %3' = (1 - %2) \\cdot %4 + %2 \\cdot \\frac{%4}{%5} = %6")
                                      .arg(numI(i), num(gamma), th, num(f0.inv_freq[i]), s, num(f.inv_freq[i]))});
            QString cExpr;
            if (explicitC) cExpr = QString();
            else if (mscale)
                cExpr = QStringLiteral("\\frac{0.1 \\cdot %1 \\ln %2 + 1}{0.1 \\cdot %3 \\ln %2 + 1} = ").arg(num(*rp.mscale), s, num(*rp.mscale_all_dim));
            else if (factor > 1)
                cExpr = QStringLiteral("0.1 \\ln %1 + 1 = ").arg(s);
            sh.numbers.push_back({FormulaSheet::tr("attention factor"), QStringLiteral("c = %1%2").arg(cExpr, num(f.attention_factor))});
            break;
        }
        case RopeScaling::LongRope: {
            const std::int64_t L0 = rp.originalMaxPositions();
            const bool useLong = seqLen > L0;
            const std::vector<double>& ext = useLong ? rp.long_factor : rp.short_factor;
            sh.definitions.push_back({FormulaSheet::tr("LongRoPE: a factor λ_i per pair (the long factors once the sequence passes L₀, else the short ones)"),
                                      T("\\theta_i' = \\frac{1}{\\lambda_i\\, \\mathrm{base}^{2i/r}}")});
            if (rp.attention_factor)
                sh.definitions.push_back({FormulaSheet::tr("Attention factor c on cos and sin: given"), T("c = \\mathrm{attention\\_factor}")});
            else
                sh.definitions.push_back({FormulaSheet::tr("Attention factor c on cos and sin"),
                                          factor <= 1 ? T("c = 1 \\quad (s \\le 1)") : T("c = \\sqrt{1 + \\frac{\\ln s}{\\ln L_0}}")});
            sh.numbers.push_back({useLong ? FormulaSheet::tr("sequence length past L₀: the long factors") : FormulaSheet::tr("sequence length within L₀: the short factors"),
                                  QStringLiteral("\\ell = %1,\\quad L_0 = %2,\\quad \\lambda_{%3} = %4,\\quad %5' = \\frac{1}{%4 \\cdot %6^{%7/%8}} = %9")
                                      .arg(numI(seqLen), numI(L0), numI(i), num(ext[std::size_t(i)]), th, num(rp.base), numI(2 * i), numI(r),
                                           num(f.inv_freq[i]))});
            const QString cExpr = rp.attention_factor || factor <= 1
                                      ? QString()
                                      : QStringLiteral("\\sqrt{1 + \\frac{\\ln %1}{\\ln %2}} = ").arg(s, numI(L0));
            sh.numbers.push_back({FormulaSheet::tr("attention factor"), QStringLiteral("s = %1,\\quad c = %2%3").arg(s, cExpr, num(f.attention_factor))});
            break;
        }
        case RopeScaling::Llama3: {
            const RopeLlama3Detail d = ropeLlama3Detail(rp);
            const std::int64_t L0 = rp.originalMaxPositions();
            sh.definitions.push_back({FormulaSheet::tr("Llama 3: by wavelength λ_i = 2π/θ_i against L₀/f_high and L₀/f_low"),
                                      T("\\theta_i' = \\begin{cases} \\theta_i & \\lambda_i < L_0/f_{\\mathrm{high}} \\\\ \\theta_i / s & \\lambda_i > L_0/f_{\\mathrm{low}} \\\\ "
                                        "(1-\\gamma_i)\\frac{\\theta_i}{s} + \\gamma_i\\,\\theta_i & \\text{else} \\end{cases},\\quad "
                                        "\\gamma_i = \\frac{L_0/\\lambda_i - f_{\\mathrm{low}}}{f_{\\mathrm{high}} - f_{\\mathrm{low}}}")});
            sh.numbers.push_back({FormulaSheet::tr("the wavelength bounds"),
                                  QStringLiteral("\\frac{L_0}{f_{\\mathrm{high}}} = \\frac{%1}{%2} = %3,\\quad \\frac{L_0}{f_{\\mathrm{low}}} = \\frac{%1}{%4} = %5,\\quad s = %6")
                                      .arg(numI(L0), num(rp.high_freq_factor), num(d.highFreqWavelength), num(rp.low_freq_factor),
                                           num(d.lowFreqWavelength), s)});
            const QString lam = QStringLiteral("\\lambda_{%1} = \\frac{2\\pi}{%2} = %3").arg(numI(i), num(f0.inv_freq[i]), num(d.wavelength[i]));
            switch (d.band[std::size_t(i)]) {
                case RopeLlama3Band::Unchanged:
                    sh.numbers.push_back({FormulaSheet::tr("pair %1: wavelength below L₀/f_high, frequency kept").arg(i),
                                          QStringLiteral("%1 < %2,\\quad %3' = %4").arg(lam, num(d.highFreqWavelength), th, num(f.inv_freq[i]))});
                    break;
                case RopeLlama3Band::Divided:
                    sh.numbers.push_back({FormulaSheet::tr("pair %1: wavelength above L₀/f_low, frequency divided by s").arg(i),
                                          QStringLiteral("%1 > %2,\\quad %3' = \\frac{%4}{%5} = %6")
                                              .arg(lam, num(d.lowFreqWavelength), th, num(f0.inv_freq[i]), s, num(f.inv_freq[i]))});
                    break;
                case RopeLlama3Band::Smoothed: {
                    const QString g = num(d.smooth[i]);
                    sh.numbers.push_back({FormulaSheet::tr("pair %1: wavelength between the bounds, blended").arg(i),
                                          QStringLiteral("%1,\\quad \\gamma_{%2} = \\frac{%3/%4 - %5}{%6 - %5} = %7")
                                              .arg(lam, numI(i), numI(L0), num(d.wavelength[i]), num(rp.low_freq_factor), num(rp.high_freq_factor), g)});
                    sh.numbers.push_back({FormulaSheet::tr("pair %1's frequency").arg(i),
                                          QStringLiteral("%1' = (1 - %2)\\frac{%3}{%4} + %2 \\cdot %3 = %5").arg(th, g, num(f0.inv_freq[i]), s, num(f.inv_freq[i]))});
                    break;
                }
            }
            break;
        }
    }
}

void ropeSheet(FormulaSheet& sh, Ctx& c, int pairReq) {
    const RopeParams rp = c.p.ropeParams();
    const std::int64_t seqLen = rp.seq_len.value_or(c.N);
    const RopeFrequencies f = ropeFrequencies(rp, seqLen);
    const RopeFrequencies f0 = ropeDefaultFrequencies(rp);
    const int r = f.rotary_dim, pairs = r / 2;
    const int i = std::clamp(pairReq, 0, pairs - 1);
    sh.focus.pair = i;
    const bool inter = rp.layout == RopeLayout::Interleaved;
    const bool given = !rp.theta.empty();
    const int c0 = inter ? 2 * i : i, c1 = inter ? 2 * i + 1 : i + r / 2;
    const RopeTables tm = ropeTables(rp, f, {c.m}), tn = ropeTables(rp, f, {c.n});
    const Matrix rq = ropeApply(rp, tm, c.q), rk = ropeApply(rp, tn, c.k);
    const Matrix am = ropeAngles(rp, f, {c.m});
    const double att = f.attention_factor;

    sh.title = QStringLiteral("RoPE — %1, base %2, d = %3%4")
                   .arg(inter ? FormulaSheet::tr("interleaved") : FormulaSheet::tr("half-split"), titleNumber(rp.base), QString::number(rp.head_dim),
                        r < rp.head_dim ? FormulaSheet::tr(", rotary %1").arg(r) : QString());
    // Definitions.
    if (given)
        sh.definitions.push_back({FormulaSheet::tr("Frequencies: given, one per pair"), T("\\theta_i,\\quad i = 0, \\ldots, \\frac{r}{2} - 1")});
    else
        sh.definitions.push_back({FormulaSheet::tr("Frequencies"), T("\\theta_i = \\mathrm{base}^{-2i/r},\\quad i = 0, \\ldots, \\frac{r}{2} - 1")});
    if (r < rp.head_dim) {
        sh.definitions.push_back({FormulaSheet::tr("Only the first r channels rotate; the others pass through"),
                                  rp.rotary_dim > 0 ? T("r = \\mathrm{rotary\\_dim}") : T("r = \\lfloor d \\cdot F \\rfloor\\ (\\text{even})")});
        sh.numbers.push_back({FormulaSheet::tr("rotated channels"), rp.rotary_dim > 0 ? QStringLiteral("r = %1,\\quad d = %2").arg(numI(r), numI(rp.head_dim))
                                                                        : QStringLiteral("r = \\lfloor %1 \\cdot %2 \\rfloor = %3,\\quad d = %1")
                                                                              .arg(numI(rp.head_dim), num(rp.partial_rotary_factor), numI(r))});
    }
    const std::size_t scalingAt = sh.definitions.size();   // the scaling's definitions go here
    sh.definitions.push_back({inter ? FormulaSheet::tr("Rotation of pair (2i, 2i+1) at position m") : FormulaSheet::tr("Rotation of pair (i, i + r/2) at position m"),
                              T("\\begin{pmatrix} x' \\\\ y' \\end{pmatrix} = \\begin{pmatrix} \\cos m\\theta_i & -\\sin m\\theta_i \\\\ \\sin m\\theta_i & \\cos m\\theta_i \\end{pmatrix} \\begin{pmatrix} x \\\\ y \\end{pmatrix}")});
    sh.definitions.push_back({FormulaSheet::tr("Score"), att != 1 ? T("s_{mn} = \\frac{\\langle R_m q,\\, R_n k \\rangle}{\\sqrt{d}},\\quad R_m \\text{ scaled by } c")
                                                    : T("s_{mn} = \\frac{\\langle R_m q,\\, R_n k \\rangle}{\\sqrt{d}}")});
    sh.definitions.push_back({FormulaSheet::tr("Only m − n enters: a cos part (x, y: the two channels of pair i)"),
                              T("\\langle R_m q, R_n k \\rangle = \\sum_i (q^x_i k^x_i + q^y_i k^y_i) \\cos((m-n)\\theta_i)")});
    sh.definitions.push_back({FormulaSheet::tr("… minus a sin part (the term a cos-only form forgets)"),
                              T("\\qquad - \\sum_i (q^y_i k^x_i - q^x_i k^y_i) \\sin((m-n)\\theta_i)")});
    sh.definitions.push_back({FormulaSheet::tr("The same with each pair as a complex number q̃ = qˣ + i qʸ"),
                              T("\\langle R_m q, R_n k \\rangle = \\Re \\sum_i \\tilde q_i \\, \\tilde k_i^{*} \\, e^{i(m-n)\\theta_i}")});

    // Numbers.
    const double th = f.inv_freq[i];
    const double a = am(0, i);
    if (given)
        sh.numbers.push_back({FormulaSheet::tr("frequency of pair %1 (given)").arg(i), QStringLiteral("\\theta_{%1} = %2").arg(i).arg(num(th))});
    else
        sh.numbers.push_back({rp.scaling == RopeScaling::None ? FormulaSheet::tr("frequency of pair %1").arg(i) : FormulaSheet::tr("unscaled frequency of pair %1").arg(i),
                              QStringLiteral("\\theta_{%1} = %2^{-%3/%4} = %5").arg(i).arg(powerBase(rp.base)).arg(2 * i).arg(r).arg(num(f0.inv_freq[i]))});
    if (!given) {
        const std::size_t before = sh.definitions.size();
        ropeScalingLines(sh, rp, f, f0, i, seqLen);
        std::rotate(sh.definitions.begin() + std::ptrdiff_t(scalingAt), sh.definitions.begin() + std::ptrdiff_t(before), sh.definitions.end());
    }
    const QString thName = !given && rp.scaling != RopeScaling::None ? QStringLiteral("\\theta_{%1}'").arg(i) : QStringLiteral("\\theta_{%1}").arg(i);
    sh.numbers.push_back({FormulaSheet::tr("angle at m = %1").arg(c.m),
                          QStringLiteral("m\\,%1 = %2 \\cdot %3 = %4 \\equiv %5 \\pmod{2\\pi}")
                              .arg(thName).arg(c.m).arg(num(th)).arg(num(a, 6)).arg(num(wrap2pi(a)))});
    const double cm = tm.cos(0, c0), sm = tm.sin(0, c0);
    sh.numbers.push_back({att != 1 ? FormulaSheet::tr("cos and sin (times the attention factor c = %1)").arg(num(att)) : FormulaSheet::tr("cos and sin"),
                          QStringLiteral("\\cos m\\theta_{%1} = %2,\\quad \\sin m\\theta_{%1} = %3").arg(i).arg(num(cm)).arg(num(sm))});
    sh.numbers.push_back({FormulaSheet::tr("pair %1 of q: channels (%2, %3)").arg(i).arg(c0).arg(c1),
                          QStringLiteral("%1 = \\begin{pmatrix} %2 & %3 \\\\ %4 & %5 \\end{pmatrix} %6")
                              .arg(col(rq(0, c0), rq(0, c1)), num(cm), num(-sm), num(sm), num(cm), col(c.q(0, c0), c.q(0, c1)))});
    // q·k terms of this pair, at distance m − n.
    const double qa = c.q(0, c0), qb = c.q(0, c1), kc = c.k(0, c0), kd = c.k(0, c1);
    const double phi = double(c.m - c.n) * th;
    const double c2 = att * att;
    const double cosTerm = c2 * (qa * kc + qb * kd) * std::cos(phi);
    const double sinTerm = -c2 * (qb * kc - qa * kd) * std::sin(phi);
    const double pairDot = rq(0, c0) * rk(0, c0) + rq(0, c1) * rk(0, c1);
    sh.numbers.push_back({FormulaSheet::tr("pair %1's part of ⟨R_m q, R_n k⟩ at m − n = %2: cos term + sin term").arg(i).arg(c.m - c.n),
                          QStringLiteral("%1 + (%2) = %3").arg(num(cosTerm), num(sinTerm), num(pairDot))});
    double total = 0;
    for (int j = 0; j < rp.head_dim; ++j) total += rq(0, j) * rk(0, j);
    sh.numbers.push_back({FormulaSheet::tr("all pairs"), QStringLiteral("\\langle R_m q, R_n k \\rangle = %1,\\quad %2 = %3")
                                              .arg(num(total), scaledTex(c, num(total)), num(total * c.s))});
    scoreLine(sh, c, QStringLiteral("s_{%1,%2}").arg(c.m).arg(c.n));
}

// ---------------------------------------------------------------- xPos
void xposSheet(FormulaSheet& sh, Ctx& c, int pairReq) {
    const XposParams xp = c.p.xposParams();
    const int pairs = xp.head_dim / 2;
    const int i = std::clamp(pairReq, 0, pairs - 1);
    sh.focus.pair = i;
    const Vector theta = xposInvFreq(xp);
    const Vector zeta = xposZeta(xp);
    // q is scaled by ζ^(c_m/γ), k by ζ^(−c_n/γ): their product is the decay of this pair.
    const Matrix up = xposScaleAt(xp, {c.m}, c.N, false), down = xposScaleAt(xp, {c.n}, c.N, true);
    const Matrix ang = xposAngles(xp, 1, c.m);   // the angles at position m
    sh.title = QStringLiteral("xPos — d = %1, scale base %2").arg(xp.head_dim).arg(titleNumber(xp.scale_base));
    sh.definitions.push_back({FormulaSheet::tr("RoPE frequencies (interleaved pairs)"), T("\\theta_i = 10000^{-2i/d}")});
    sh.definitions.push_back({FormulaSheet::tr("Per-pair decay"), T("\\zeta_i = \\frac{2i + 0.4\\,d}{1.4\\,d}")});
    sh.definitions.push_back({FormulaSheet::tr("Score: rotation times an explicit decay (γ = scale base)"),
                              T("s_{mn} = \\frac{1}{\\sqrt{d}} \\sum_i \\zeta_i^{(m-n)/\\gamma} \\left[ \\ldots \\right]_{\\text{RoPE}}")});
    sh.numbers.push_back({FormulaSheet::tr("frequency of pair %1").arg(i), QStringLiteral("\\theta_{%1} = 10000^{-%2/%3} = %4").arg(i).arg(2 * i).arg(xp.head_dim).arg(num(theta[i]))});
    sh.numbers.push_back({FormulaSheet::tr("decay of pair %1 at m − n = %2").arg(i).arg(c.m - c.n),
                          QStringLiteral("\\zeta_{%1} = \\frac{2 \\cdot %1 + 0.4 \\cdot %2}{1.4 \\cdot %2} = %3,\\quad \\zeta_{%1}^{(m-n)/\\gamma} = %3^{%4/%5} = %6")
                              .arg(numI(i), numI(xp.head_dim), num(zeta[i]), numI(c.m - c.n), num(xp.scale_base), num(up(0, i) * down(0, i)))});
    sh.numbers.push_back({FormulaSheet::tr("angle at m = %1").arg(c.m),
                          QStringLiteral("m\\,\\theta_{%1} = %2 \\equiv %3 \\pmod{2\\pi}").arg(i).arg(num(ang(0, i), 6)).arg(num(wrap2pi(ang(0, i))))});
    scoreLine(sh, c, QStringLiteral("s_{%1,%2}").arg(c.m).arg(c.n));
}

// ---------------------------------------------------------------- sinusoidal
void sinusoidalSheet(FormulaSheet& sh, Ctx& c, int pairReq) {
    const SinusoidalParams sp = c.p.sinusoidalParams();
    const Vector w = sinusoidalFrequencies(sp);
    const int K = int(w.size());
    const int i = std::clamp(pairReq, 0, std::max(0, K - 1));
    sh.focus.pair = i;
    const bool inter = sp.layout == SinusoidalLayout::Interleaved;
    const bool t2t = sp.frequencies == SinusoidalFrequencies::Tensor2Tensor;
    const Matrix pe = sinusoidalEncoding(sp, {c.m, c.n});
    const int cs = inter ? 2 * i : i, cc = inter ? 2 * i + 1 : K + i;
    sh.title = QStringLiteral("Sinusoidal — %1, base %2, d = %3").arg(inter ? FormulaSheet::tr("interleaved") : FormulaSheet::tr("concatenated"), titleNumber(sp.base)).arg(sp.dim);
    if (t2t)
        sh.definitions.push_back({FormulaSheet::tr("Frequencies, log-spaced from the smallest timescale t to the base (tensor2tensor, K pairs)"),
                                  T("w_i = t \\exp\\left(-\\frac{i \\ln(\\mathrm{base}/t)}{\\max(K - 1, 1)}\\right)")});
    else
        sh.definitions.push_back({FormulaSheet::tr("Frequencies"), T("w_i = \\mathrm{base}^{-2i/d}")});
    sh.definitions.push_back({FormulaSheet::tr("Encoding of position p"),
                              inter ? T("PE_{p,2i} = \\sin(p\\,w_i),\\quad PE_{p,2i+1} = \\cos(p\\,w_i)")
                                    : T("PE_p = \\left[ \\sin(p\\,w) \\mid \\cos(p\\,w) \\right]")});
    sh.definitions.push_back({FormulaSheet::tr("A shift is a rotation"),
                              T("\\begin{pmatrix} PE_{p+\\Delta,2i} \\\\ PE_{p+\\Delta,2i+1} \\end{pmatrix} = \\begin{pmatrix} \\cos \\Delta w_i & \\sin \\Delta w_i \\\\ -\\sin \\Delta w_i & \\cos \\Delta w_i \\end{pmatrix} \\begin{pmatrix} PE_{p,2i} \\\\ PE_{p,2i+1} \\end{pmatrix}")});
    sh.definitions.push_back({FormulaSheet::tr("Encodings alone are relative; with tokens they are not"),
                              T("PE_m \\cdot PE_n = \\sum_i \\cos((m-n)\\,w_i),\\qquad s_{mn} = \\frac{(x_m + PE_m)\\cdot(x_n + PE_n)}{\\sqrt{d}}")});
    if (K > 0) {
        if (t2t)
            sh.numbers.push_back({FormulaSheet::tr("frequency of pair %1 (K = %2)").arg(i).arg(K),
                                  QStringLiteral("w_{%1} = %2 \\exp\\left(-\\frac{%1 \\ln(%3/%2)}{%4}\\right) = %5")
                                      .arg(numI(i), num(sp.min_timescale), num(sp.base), numI(std::max(K - 1, 1)), num(w[i]))});
        else
            sh.numbers.push_back({FormulaSheet::tr("frequency of pair %1").arg(i),
                                  QStringLiteral("w_{%1} = %2^{-%3/%4} = %5").arg(i).arg(powerBase(sp.base)).arg(2 * i).arg(sp.dim).arg(num(w[i]))});
        // An odd interleaved dimension ends with a lone sine column.
        const QString cosPart = cc < sp.dim ? QStringLiteral(",\\quad PE_{%1,%2} = \\cos(%3) = %4").arg(c.m).arg(cc).arg(num(double(c.m) * w[i])).arg(num(pe(0, cc)))
                                            : QString();
        sh.numbers.push_back({FormulaSheet::tr("at p = m = %1").arg(c.m),
                              QStringLiteral("PE_{%1,%2} = \\sin(%3) = %4%5").arg(c.m).arg(cs).arg(num(double(c.m) * w[i])).arg(num(pe(0, cs))).arg(cosPart)});
    }
    sh.numbers.push_back({FormulaSheet::tr("encodings alone (m − n = %1)").arg(c.m - c.n),
                          QStringLiteral("PE_{%1} \\cdot PE_{%2} = %3").arg(c.m).arg(c.n).arg(num(pe.row(0).dot(pe.row(1))))});
    sh.numbers.push_back({FormulaSheet::tr("with the %1 content").arg(contentName(c.p.content)),
                          QStringLiteral("(x_m + PE_m)\\cdot(x_n + PE_n) = %1").arg(num((c.q.row(0) + pe.row(0)).dot(c.k.row(0) + pe.row(1))))});
    scoreLine(sh, c, QStringLiteral("s_{%1,%2}").arg(c.m).arg(c.n));
}

// ---------------------------------------------------------------- learned
void learnedSheet(FormulaSheet& sh, Ctx& c) {
    const LearnedParams lp = c.p.learnedParams();
    sh.title = QStringLiteral("Learned absolute — table %1 × %2").arg(lp.table_size).arg(lp.dim);
    sh.definitions.push_back({FormulaSheet::tr("One learned row per position"), T("PE_p = E_p,\\quad E \\in \\mathbb{R}^{T \\times d}")});
    sh.definitions.push_back({FormulaSheet::tr("Score"), T("s_{mn} = \\frac{(x_m + E_m)\\cdot(x_n + E_n)}{\\sqrt{d}}")});
    sh.definitions.push_back({FormulaSheet::tr("No row past the table"), T("p \\ge T \\;\\Rightarrow\\; \\text{undefined}")});
    auto e = learnedEncoding(lp, {c.m});
    if (e.ok())
        sh.numbers.push_back({FormulaSheet::tr("row m = %1 (first entries)").arg(c.m),
                              QStringLiteral("E_{%1} = (%2%3)").arg(c.m).arg(num(e.value()(0, 0))).arg(lp.dim > 1 ? QStringLiteral(", ") + num(e.value()(0, 1)) + QStringLiteral(", \\ldots") : QString())});
    else
        sh.note = QString::fromStdString(e.error().message());
    sh.numbers.push_back({FormulaSheet::tr("table size"), QStringLiteral("T = %1,\\quad d = %2").arg(lp.table_size).arg(lp.dim)});
    scoreLine(sh, c, QStringLiteral("s_{%1,%2}").arg(c.m).arg(c.n));
}

// ---------------------------------------------------------------- Shaw
void shawSheet(FormulaSheet& sh, Ctx& c) {
    const ShawParams sp = c.p.shawParams();
    const std::int64_t kk = sp.max_relative_position;
    const IntMatrix idx = shawIndexAt({c.m}, {c.n}, kk);
    // q·a^K from the score itself (e = (q·k + q·a^K)/√d), so that a large k never builds the table.
    const double qk = c.q.row(0).dot(c.k.row(0));
    const double qa = c.score ? *c.score / c.s - qk : std::nan("");
    sh.title = QStringLiteral("Shaw relative — k = %1, d = %2").arg(kk).arg(sp.dim);
    sh.definitions.push_back({FormulaSheet::tr("Relative key embedding, clipped at ±k: 2k + 1 learned rows"),
                              T("e_{ij} = \\frac{q_i \\cdot \\left(k_j + a^K_{\\mathrm{clip}(j - i, -k, k)}\\right)}{\\sqrt{d}}")});
    sh.numbers.push_back({FormulaSheet::tr("clipping distance and table rows"), QStringLiteral("k = %1,\\quad 2k + 1 = %2").arg(kk).arg(2 * kk + 1)});
    sh.numbers.push_back({FormulaSheet::tr("offset j − i = %1").arg(c.n - c.m),
                          QStringLiteral("\\mathrm{clip}(%1, -%2, %2) + %2 = %3").arg(c.n - c.m).arg(kk).arg(idx(0, 0))});
    sh.numbers.push_back({FormulaSheet::tr("content and position terms"), QStringLiteral("q_i \\cdot k_j = %1,\\quad q_i \\cdot a^K = %2").arg(num(qk), num(qa))});
    scoreLine(sh, c, QStringLiteral("e_{%1,%2}").arg(c.m).arg(c.n));
}

// ---------------------------------------------------------------- T5
void t5Sheet(FormulaSheet& sh, Ctx& c) {
    const T5Params tp = c.p.t5Params();
    const bool bidi = tp.bidirectional;
    const std::int64_t rel = c.n - c.m;
    const std::int64_t b = t5Bucket(rel, tp);
    const Matrix table = t5BiasTable(tp);
    const int h = std::clamp(c.p.head, 0, tp.heads - 1);
    const std::int64_t nb = bidi ? tp.num_buckets / 2 : tp.num_buckets;
    const std::int64_t maxExact = nb / 2;
    const std::int64_t offset = bidi && rel > 0 ? nb : 0;
    const std::int64_t dist = bidi ? std::abs(rel) : std::max<std::int64_t>(-rel, 0);
    sh.title = QStringLiteral("T5 buckets — %1 buckets, max distance %2, %3, head %4")
                   .arg(tp.num_buckets).arg(tp.max_distance).arg(bidi ? FormulaSheet::tr("bidirectional") : FormulaSheet::tr("causal")).arg(h);
    sh.definitions.push_back({FormulaSheet::tr("Score: content plus a learned bias per bucket"), T("s_{ij} = \\frac{q_i \\cdot k_j}{\\sqrt{d}} + b_h[\\mathrm{bucket}(j - i)]")});
    if (bidi)
        sh.definitions.push_back({FormulaSheet::tr("Bidirectional (encoder): half of the buckets for keys after the query"),
                                  T("nb = \\frac{\\mathrm{num\\_buckets}}{2},\\quad \\mathrm{bucket}(j - i) = nb\\,[j > i] + b(|j - i|)")});
    else
        sh.definitions.push_back({FormulaSheet::tr("Causal (decoder): every bucket for keys before the query; keys after it share bucket 0"),
                                  T("nb = \\mathrm{num\\_buckets},\\quad \\mathrm{bucket}(j - i) = b(\\max(i - j, 0))")});
    sh.definitions.push_back({FormulaSheet::tr("Exact buckets for n < nb/2, logarithmic ones up to the maximum distance"),
                              T("b(n) = \\begin{cases} n & n < \\mathrm{max\\_exact} \\\\ \\min\\left(\\mathrm{max\\_exact} + \\left\\lfloor \\frac{\\ln(n / \\mathrm{max\\_exact})}{\\ln(\\mathrm{max\\_distance} / \\mathrm{max\\_exact})} (nb - \\mathrm{max\\_exact}) \\right\\rfloor,\\ nb - 1\\right) & \\text{else} \\end{cases}")});
    sh.numbers.push_back({FormulaSheet::tr("buckets per direction and exact range"),
                          QStringLiteral("nb = %1 = %2,\\quad \\mathrm{max\\_exact} = \\frac{%2}{2} = %3")
                              .arg(bidi ? QStringLiteral("\\frac{%1}{2}").arg(tp.num_buckets) : numI(tp.num_buckets), numI(nb), numI(maxExact))});
    sh.numbers.push_back({FormulaSheet::tr("distance"), bidi ? QStringLiteral("n = |%1| = %2").arg(rel).arg(dist) : QStringLiteral("n = \\max(%1, 0) = %2").arg(-rel).arg(dist)});
    if (dist < maxExact)
        sh.numbers.push_back({FormulaSheet::tr("n < nb/2: an exact bucket"), QStringLiteral("b(%1) = %1").arg(dist)});
    else
        sh.numbers.push_back({FormulaSheet::tr("n ≥ nb/2: a logarithmic bucket"),
                              QStringLiteral("b(%1) = \\min\\left(%2 + \\left\\lfloor \\frac{\\ln(%1/%2)}{\\ln(%3/%2)} (%4 - %2) \\right\\rfloor,\\ %5\\right) = %6")
                                  .arg(numI(dist), numI(maxExact), numI(tp.max_distance), numI(nb), numI(nb - 1), numI(b - offset))});
    sh.numbers.push_back({FormulaSheet::tr("offset j − i = %1, head %2").arg(rel).arg(h),
                          QStringLiteral("\\mathrm{bucket}(%1) = %2,\\quad b_{%3}[%2] = %4").arg(rel).arg(b).arg(h).arg(num(table(b, h)))});
    sh.numbers.push_back({FormulaSheet::tr("content term"), QStringLiteral("%1 = %2").arg(scaledTex(c, QStringLiteral("q_i \\cdot k_j")), num(c.q.row(0).dot(c.k.row(0)) * c.s))});
    scoreLine(sh, c, QStringLiteral("s_{%1,%2}").arg(c.m).arg(c.n));
}

// ---------------------------------------------------------------- Transformer-XL
void txlSheet(FormulaSheet& sh, Ctx& c) {
    const TransformerXLParams xp = c.p.transformerXLParams();
    const auto terms = transformerXLTerms(xp, {c.m}, {c.n}, c.q, c.k);
    const std::int64_t d = c.m - c.n;
    const std::int64_t dc = xp.clamp_len > 0 ? std::min(d, xp.clamp_len) : d;
    sh.title = QStringLiteral("Transformer-XL — d = %1%2").arg(xp.dim).arg(xp.clamp_len > 0 ? FormulaSheet::tr(", clamp %1").arg(xp.clamp_len) : QString());
    sh.definitions.push_back({FormulaSheet::tr("Four terms, R the relative sinusoid (base 10000, [sin | cos])"),
                              T("A_{ij} = q_i \\cdot k_j + q_i \\cdot W_R R_{i-j} + u \\cdot k_j + v \\cdot W_R R_{i-j}")});
    if (xp.clamp_len > 0) {
        sh.definitions.push_back({FormulaSheet::tr("Distances clamped at C = clamp_len"), T("R_{i-j} \\to R_{\\min(i-j,\\, C)}")});
        sh.numbers.push_back({FormulaSheet::tr("distance i − j = %1, clamped").arg(d), QStringLiteral("\\min(%1, %2) = %3").arg(d).arg(xp.clamp_len).arg(dc)});
    }
    sh.numbers.push_back({FormulaSheet::tr("distance i − j = %1").arg(d),
                          QStringLiteral("a = %1,\\ b = %2,\\ c = %3,\\ d = %4").arg(num(terms.a(0, 0)), num(terms.b(0, 0)), num(terms.c(0, 0)), num(terms.d(0, 0)))});
    sh.numbers.push_back({FormulaSheet::tr("sum, scaled"), QStringLiteral("%1 = %2").arg(scaledTex(c, QStringLiteral("a + b + c + d"))).arg(num((terms.a(0, 0) + terms.b(0, 0) + terms.c(0, 0) + terms.d(0, 0)) * c.s))});
    scoreLine(sh, c, QStringLiteral("s_{%1,%2}").arg(c.m).arg(c.n));
}

// ---------------------------------------------------------------- ALiBi
void alibiSheet(FormulaSheet& sh, Ctx& c) {
    const AlibiParams ap = c.p.alibiParams();
    const Vector slopes = alibiSlopes(ap);
    const int H = ap.heads;
    const int h = std::clamp(c.p.head, 0, H - 1);
    int n = 1;   // the closest power of two at or below H
    while (n <= H / 2) n *= 2;
    const bool pow2 = n == H;
    const QString B = num(ap.bias_max);
    const Matrix b = alibiBias(ap, h, {c.m}, {c.n});
    sh.title = QStringLiteral("ALiBi — %1 heads, head %2").arg(H).arg(h);
    if (pow2)
        sh.definitions.push_back({FormulaSheet::tr("Slopes: H = %1 is a power of two, a geometric sequence (B = bias_max)").arg(H), T("m_h = 2^{-B(h+1)/H},\\quad h = 0, \\ldots, H - 1")});
    else
        sh.definitions.push_back({FormulaSheet::tr("Slopes: H = %1 is not a power of two: the n = %2 slopes of the closest power of two, then every other slope of 2n = %3 heads (B = bias_max)")
                                      .arg(H).arg(n).arg(2 * n),
                                  T("m_h = \\begin{cases} 2^{-B(h+1)/n} & h < n \\\\ 2^{-B(2(h-n)+1)/(2n)} & n \\le h < H \\end{cases},\\quad n = 2^{\\lfloor \\log_2 H \\rfloor}")});
    sh.definitions.push_back({FormulaSheet::tr("Score: content minus slope × distance"),
                              ap.symmetric ? T("s_{ij} = \\frac{q_i \\cdot k_j}{\\sqrt{d}} - m_h\\,|i - j|") : T("s_{ij} = \\frac{q_i \\cdot k_j}{\\sqrt{d}} - m_h\\,(i - j)")});
    sh.numbers.push_back({FormulaSheet::tr("heads and bias_max"), pow2 ? QStringLiteral("H = %1,\\quad B = %2").arg(H).arg(B)
                                                          : QStringLiteral("H = %1,\\quad n = 2^{\\lfloor \\log_2 %1 \\rfloor} = %2,\\quad B = %3").arg(H).arg(n).arg(B)});
    // m_g with its exponent, for head g.
    const auto slopeLine = [&](int g) {
        if (g < n) return QStringLiteral("m_{%1} = 2^{-%2 \\cdot %3/%4} = %5").arg(g).arg(B).arg(g + 1).arg(n).arg(num(slopes[g]));
        return QStringLiteral("m_{%1} = 2^{-%2 \\cdot %3/%4} = %5").arg(g).arg(B).arg(2 * (g - n) + 1).arg(2 * n).arg(num(slopes[g]));
    };
    sh.numbers.push_back({FormulaSheet::tr("the first slope"), slopeLine(0)});
    if (!pow2) sh.numbers.push_back({FormulaSheet::tr("the first of the other %1 heads: the first slope of %2 heads").arg(H - n).arg(2 * n), slopeLine(n)});
    if (h != 0 && (pow2 || h != n)) sh.numbers.push_back({FormulaSheet::tr("slope of head %1").arg(h), slopeLine(h)});
    sh.numbers.push_back({FormulaSheet::tr("bias at i = %1, j = %2").arg(c.m).arg(c.n),
                          QStringLiteral("b_{%1,%2} = -%3 \\cdot %4 = %5")
                              .arg(c.m).arg(c.n).arg(num(slopes[h]))
                              .arg(ap.symmetric ? QStringLiteral("|%1|").arg(c.m - c.n) : QStringLiteral("(%1)").arg(c.m - c.n))
                              .arg(num(b(0, 0)))});
    sh.numbers.push_back({FormulaSheet::tr("content term"), QStringLiteral("%1 = %2").arg(scaledTex(c, QStringLiteral("q_i \\cdot k_j")), num(c.q.row(0).dot(c.k.row(0)) * c.s))});
    scoreLine(sh, c, QStringLiteral("s_{%1,%2}").arg(c.m).arg(c.n));
}

void nopeSheet(FormulaSheet& sh, Ctx& c) {
    sh.title = QStringLiteral("No positions — d = %1").arg(c.dim);
    sh.definitions.push_back({FormulaSheet::tr("Score: content only"), T("s_{ij} = \\frac{q_i \\cdot k_j}{\\sqrt{d}}")});
    sh.definitions.push_back({FormulaSheet::tr("Shuffling the tokens shuffles the outputs"), T("\\mathrm{Attn}(P X) = P\\, \\mathrm{Attn}(X)")});
    sh.numbers.push_back({FormulaSheet::tr("content term"), QStringLiteral("%1 = %2").arg(scaledTex(c, QStringLiteral("q_i \\cdot k_j")), num(c.q.row(0).dot(c.k.row(0)) * c.s))});
    scoreLine(sh, c, QStringLiteral("s_{%1,%2}").arg(c.m).arg(c.n));
}

// ---------------------------------------------------------------- the layer's attention
// What the layer adds to any method's score (core/attention.h): the score scale actually used,
// the q/k RMS norm and where it sits, temperature tuning of the query, the mask, the sink.
void attentionLines(FormulaSheet& sh, const Ctx& c) {
    const AttentionParams& a = c.p.attention;
    if (a.nope)
        sh.definitions.insert(sh.definitions.begin(),
                              {FormulaSheet::tr("This layer applies no positional encoding (NoPE)"), T("s_{ij} = s \\cdot q_i \\cdot k_j")});
    const double used = scoreScale(a, c.dim);
    if (a.softmax_scale) {
        // 1/s² an integer (Gemma's query_pre_attn_scalar): s = that^−½.
        const double inv2 = 1.0 / (used * used);
        const QString form = std::abs(inv2 - std::round(inv2)) < 1e-6 * inv2
                                 ? QStringLiteral("\\frac{1}{\\sqrt{%1}} = ").arg(qint64(std::llround(inv2)))
                                 : QString();
        sh.definitions.push_back({FormulaSheet::tr("Score scale: the model's own, not 1/√d"),
                                  QStringLiteral("s = %1%2 \\quad (\\frac{1}{\\sqrt{%3}} = %4)")
                                      .arg(form, num(used))
                                      .arg(c.dim)
                                      .arg(num(1.0 / std::sqrt(double(c.dim))))});
    }
    if (a.qk_norm != QkNorm::None)
        sh.definitions.push_back({a.qk_norm == QkNorm::Before ? FormulaSheet::tr("q/k RMS norm, before the rotation")
                                                              : FormulaSheet::tr("q/k RMS norm, after the rotation"),
                                  QStringLiteral("x \\mapsto \\frac{x}{\\sqrt{\\mathrm{mean}(x^2) + %1}}").arg(num(a.norm_eps))});
    if (a.temperature_tuning.size() == 2) {
        const double F = a.temperature_tuning[0], S = a.temperature_tuning[1];
        sh.definitions.push_back({FormulaSheet::tr("Temperature tuning: query row i scaled by τ(i)"),
                                  QStringLiteral("\\tau(i) = \\ln\\left(1 + \\left\\lfloor \\frac{i + 1}{%1} \\right\\rfloor\\right) \\cdot %2 + 1")
                                      .arg(num(F), num(S))});
        sh.numbers.push_back({FormulaSheet::tr("query scale at i = %1").arg(c.m),
                              QStringLiteral("\\tau(%1) = %2").arg(c.m).arg(num(temperatureScale(a, c.m, Precision::Double)))});
    }
    if (a.query_scaling.size() == 2) {
        const double N = a.query_scaling[0], beta = a.query_scaling[1];
        sh.definitions.push_back({FormulaSheet::tr("Query scaling with position: query row i times"),
                                  QStringLiteral("1 + %1 \\ln\\left(1 + \\left\\lfloor \\frac{i}{%2} \\right\\rfloor\\right)")
                                      .arg(num(beta), num(N))});
        sh.numbers.push_back({FormulaSheet::tr("query scale at i = %1").arg(c.m),
                              QStringLiteral("%1").arg(num(queryScale(a, c.m, Precision::Double)))});
    }
    if (a.softcap) {
        sh.definitions.push_back({FormulaSheet::tr("Logit soft-cap: each score before the mask and softmax"),
                                  QStringLiteral("s \\mapsto %1 \\tanh\\left(\\frac{s}{%1}\\right)").arg(num(*a.softcap))});
        if (c.score) {
            ScoreParams uncapped = c.p;
            uncapped.attention.softcap.reset();
            if (auto before = scores(uncapped, {c.m}, {c.n}, c.N); before.ok())
                sh.numbers.push_back({FormulaSheet::tr("score before and after the cap"),
                                      QStringLiteral("%1 \\mapsto %2").arg(num(before.value()(0, 0)), num(*c.score))});
        }
    }
    const bool causal = a.causalWith(c.p.causal);
    if (a.chunk)
        sh.definitions.push_back({FormulaSheet::tr("Chunked attention: j visible from i"),
                                  QStringLiteral("j \\le i,\\ \\left\\lfloor \\frac{j}{%1} \\right\\rfloor = \\left\\lfloor \\frac{i}{%1} \\right\\rfloor").arg(*a.chunk)});
    else if (a.window && causal)
        sh.definitions.push_back({FormulaSheet::tr("Sliding window: j visible from i"), QStringLiteral("i - %1 < j \\le i").arg(*a.window)});
    else if (a.window)
        sh.definitions.push_back({FormulaSheet::tr("Sliding window (bidirectional): j visible from i"),
                                  QStringLiteral("|i - j| \\le %1").arg(*a.window / 2)});
    if (const auto sink = c.p.sinkLogit())
        sh.definitions.push_back({FormulaSheet::tr("Sink logit of head %1: a row sums to 1 − p_sink").arg(c.p.head),
                                  QStringLiteral("p_{sink} = \\frac{e^{%1}}{e^{%1} + \\sum_j e^{s_{ij}}}").arg(num(*sink))});
}

}  // namespace

FormulaSheet formulaSheet(const SceneParams& scene, int config, const FormulaFocus& focus) {
    FormulaSheet sh;
    const int cfg = std::clamp(config, 0, int(scene.methods.size()) - 1);
    if (auto problem = configProblem(scene, cfg)) {
        sh.title = configTitle(scene, cfg);
        sh.note = *problem;
        return sh;
    }
    Ctx c;
    // The parameters the views use: the scene's causal choice selects T5's decoder buckets and
    // ALiBi's one-sided bias, as in the heatmap. The score is the one before softmax.
    c.p = effectiveParams(scene, cfg);
    c.p.softmax = false;
    c.N = std::max<std::int64_t>(1, scene.length);
    c.m = std::clamp<std::int64_t>(focus.query, 0, c.N - 1);
    c.n = std::clamp<std::int64_t>(focus.key, 0, c.N - 1);
    sh.focus = {c.m, c.n, focus.pair};
    c.dim = c.p.dim;
    c.s = scoreScale(c.p.attention, c.dim);   // the model's own scale (Gemma 2: query_pre_attn_scalar^−½)
    c.q = contentRows(c.p.content, false, {c.m}, c.dim, c.p.seed);
    c.k = contentRows(c.p.content, true, {c.n}, c.dim, c.p.seed);
    if (c.p.causal && c.n > c.m) {
        c.scoreError = FormulaSheet::tr("The key is after the query: the causal mask hides this cell.");
    } else if (!visible(c.p.attention, c.p.attention.causalWith(c.p.causal), c.m, c.n, c.N)) {
        c.scoreError = FormulaSheet::tr("The key lies outside the layer's window or chunk: the mask hides this cell.");
    } else {
        auto sc = scores(c.p, {c.m}, {c.n}, c.N);
        if (sc.ok()) c.score = sc.value()(0, 0);
        else c.scoreError = QString::fromStdString(sc.error().message());
    }
    switch (c.p.effectiveMethod()) {   // a NoPE layer: NoPE
        case Method::Rope: ropeSheet(sh, c, focus.pair); break;
        case Method::Xpos: xposSheet(sh, c, focus.pair); break;
        case Method::Sinusoidal: sinusoidalSheet(sh, c, focus.pair); break;
        case Method::Learned: learnedSheet(sh, c); break;
        case Method::Shaw: shawSheet(sh, c); break;
        case Method::T5: t5Sheet(sh, c); break;
        case Method::TransformerXL: txlSheet(sh, c); break;
        case Method::Alibi: alibiSheet(sh, c); break;
        case Method::NoPE: nopeSheet(sh, c); break;
    }
    attentionLines(sh, c);
    if (scene.methods.size() > 1) sh.title = configTitle(scene, cfg) + QStringLiteral(" · ") + sh.title;
    sh.score = c.score;
    return sh;
}

// ============================================================================ FormulaView
SheetContent sheetContent(const QString& title, const std::vector<FormulaLine>& lines, const QString& note,
                          const Theme& theme, double formulaPt, const std::vector<Formula>& reuse) {
    SheetContent c;
    c.title = title;
    c.note = note;
    c.theme = theme;
    c.formulaPt = formulaPt;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        c.labels.push_back(lines[i].label);
        if (i < reuse.size() && reuse[i].source() == lines[i].tex) c.formulas.push_back(reuse[i]);
        else c.formulas.push_back(Formula::parse(lines[i].tex));
    }
    return c;
}

qreal paintSheet(QPainter& p, const QRectF& rect, const SheetContent& sheet) {
    p.save();
    const Theme& theme = sheet.theme;
    const QFont titleF = theme.titleFont();
    const QFont labelF = theme.smallFont();
    QFont ff;
    ff.setPointSizeF(sheet.formulaPt * theme.fontScale);
    qreal y = rect.top();
    const qreal pad = QFontMetricsF(labelF, p.device()).height() * 0.35;
    if (!sheet.title.isEmpty()) {
        p.setFont(titleF);
        p.setPen(theme.foreground);
        const QFontMetricsF fm(titleF, p.device());
        const QRectF r(rect.left(), y, rect.width(), fm.height() * 3);
        QRectF used;
        ui::plot::recordedText(p, r, Qt::TextWordWrap | Qt::AlignLeft | Qt::AlignTop, typeset(sheet.title), &used);
        y += used.height() + pad * 1.5;
    }
    for (std::size_t i = 0; i < sheet.formulas.size(); ++i) {
        if (!sheet.labels[i].isEmpty()) {
            p.setFont(labelF);
            p.setPen(theme.muted);
            const QFontMetricsF fm(labelF, p.device());
            QRectF used;
            ui::plot::recordedText(p, QRectF(rect.left(), y, rect.width(), fm.height() * 3), Qt::TextWordWrap | Qt::AlignLeft | Qt::AlignTop,
                       typeset(sheet.labels[i]), &used);
            y += used.height() + pad * 0.4;
        }
        // Shrink a formula that is wider than the panel.
        QFont f = ff;
        QSizeF sz = sheet.formulas[i].size(f, p.device());
        if (sz.width() > rect.width() - 16 && sz.width() > 0) {
            f.setPointSizeF(std::max(6.0, f.pointSizeF() * (rect.width() - 16) / sz.width()));
            sz = sheet.formulas[i].size(f, p.device());
        }
        sheet.formulas[i].paint(&p, QPointF(rect.left() + 8, y), f, theme.foreground);
        y += sz.height() + pad * 1.6;
    }
    if (!sheet.note.isEmpty()) {
        p.setFont(theme.bodyFont());
        p.setPen(theme.error);
        const QFontMetricsF fm(theme.bodyFont(), p.device());
        QRectF used;
        ui::plot::recordedText(p, QRectF(rect.left(), y, rect.width(), fm.height() * 4), Qt::TextWordWrap | Qt::AlignLeft | Qt::AlignTop,
                   typeset(sheet.note), &used);
        y += used.height();
    }
    p.restore();
    return y - rect.top();
}

namespace {

// The view height a sheet needs at a width: measured by painting it onto a throw-away image.
int sheetHeight(const SheetContent& sheet, int width) {
    QImage probe(std::max(width, 1), 8, QImage::Format_ARGB32_Premultiplied);
    QPainter p(&probe);
    const qreal h = paintSheet(p, QRectF(8, 8, width - 16, 100000), sheet);
    return int(std::ceil(h)) + 16;
}

}  // namespace

SheetDrawing drawSheet(SheetContent content, int width, double devicePixelRatio) {
    SheetDrawing d;
    d.content = std::move(content);
    if (width <= 0) return d;
    d.width = std::max(width, 40);
    d.height = sheetHeight(d.content, d.width);
    d.image = QImage(pictureSize(QSize(d.width, d.height), devicePixelRatio), QImage::Format_RGB32);
    d.image.setDevicePixelRatio(devicePixelRatio);
    QPainter p(&d.image);
    p.fillRect(QRectF(0, 0, d.width, d.height), d.content.theme.background);
    p.setRenderHint(QPainter::Antialiasing);
    paintSheet(p, QRectF(8, 8, d.width - 16, 100000), d.content);
    return d;
}

FormulaView::FormulaView(QWidget* parent) : QWidget(parent) {
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Minimum);
    setAttribute(Qt::WA_OpaquePaintEvent);
    sheet_.theme = themeByName(QStringLiteral("light"));
}

void FormulaView::setSheet(const QString& title, const std::vector<FormulaLine>& lines, const QString& note) {
    // Formulas whose source did not change are kept with their cached layouts.
    sheet_ = sheetContent(title, lines, note, sheet_.theme, sheet_.formulaPt, sheet_.formulas);
    drawing_ = {};
    contentChanged();
}

void FormulaView::setDrawing(SheetDrawing drawing) {
    sheet_ = drawing.content;
    drawing_ = std::move(drawing);
    contentChanged();
}

void FormulaView::setTheme(const Theme& theme, double formulaPt) {
    sheet_.theme = theme;
    sheet_.formulaPt = formulaPt;
    contentChanged();
}

void FormulaView::contentChanged() {
    // A new layout only when the height the sheet needs changes (the numbers follow a slider
    // drag; re-laying the dock out for each would repaint the whole window).
    hintWidth_ = -1;
    const int h = sizeHint().height();
    if (h != layoutHeight_) {
        layoutHeight_ = h;
        updateGeometry();
    }
    update();
}

bool FormulaView::drawingFits() const {
    return !drawing_.image.isNull() && drawing_.width == width() && drawing_.image.devicePixelRatio() == devicePixelRatioF() &&
           themeKey(drawing_.content.theme) == themeKey(sheet_.theme) && drawing_.content.formulaPt == sheet_.formulaPt;
}

QSize FormulaView::sizeHint() const {
    const int w = std::max(width(), 360);
    if (drawingFits()) return {w, drawing_.height};
    if (hintWidth_ != w) {
        hintHeight_ = sheetHeight(sheet_, w);
        hintWidth_ = w;
    }
    return {w, hintHeight_};
}

void FormulaView::resizeEvent(QResizeEvent* e) {
    QWidget::resizeEvent(e);
    Q_EMIT resized();
}

void FormulaView::paintEvent(QPaintEvent*) {
    QPainter p(this);
    fromDrawing_ = drawingFits();
    if (fromDrawing_) {
        p.drawImage(QPointF(0, 0), drawing_.image);
        if (drawing_.height < height()) p.fillRect(QRectF(0, drawing_.height, width(), height() - drawing_.height), sheet_.theme.background);
        return;
    }
    p.fillRect(rect(), sheet_.theme.background);
    p.setRenderHint(QPainter::Antialiasing);
    const qreal h = ui::paintSheet(p, QRectF(8, 8, width() - 16, 100000), sheet_);
    if (int(h) + 16 > height()) {
        setMinimumHeight(int(std::ceil(h)) + 16);
    }
}

// ============================================================================ FormulaPanel
FormulaPanel::FormulaPanel(Scene* scene, QWidget* parent) : QWidget(parent), scene_(scene) {
    setObjectName(QStringLiteral("formulaPanel"));
    pool_.setMaxThreadCount(1);
    cooldown_ = new QTimer(this);
    cooldown_->setSingleShot(true);
    cooldown_->setInterval(kCooldownMs);
    connect(cooldown_, &QTimer::timeout, this, [this] {
        if (dirty_) request();
    });
    auto* lay = new QVBoxLayout(this);
    auto* controls = new QHBoxLayout;
    query_ = new QSpinBox(this);
    query_->setObjectName(QStringLiteral("formulaQuery"));
    key_ = new QSpinBox(this);
    key_->setObjectName(QStringLiteral("formulaKey"));
    pair_ = new QSpinBox(this);
    pair_->setObjectName(QStringLiteral("formulaPair"));
    // Fixed sizes that fit the largest values (positions up to 2^30, pairs up to 32768): a
    // range that follows the scene (the pair count follows the dimension during a drag) then
    // never re-lays the dock and the main window out.
    for (auto [box, widest] : {std::pair{query_, 1 << 30}, std::pair{key_, 1 << 30}, std::pair{pair_, 32767}}) {
        box->setRange(0, widest);
        box->setFixedSize(box->sizeHint());
    }
    query_->setValue(5);
    key_->setValue(2);
    query_->setToolTip(tr("Query position (m for RoPE and sinusoidal, i for the bias methods)"));
    key_->setToolTip(tr("Key position (n, or j)"));
    pair_->setToolTip(tr("Which pair of channels the numbers follow"));
    controls->addWidget(new QLabel(tr("query"), this));
    controls->addWidget(query_);
    controls->addWidget(new QLabel(tr("key"), this));
    controls->addWidget(key_);
    controls->addWidget(new QLabel(tr("pair"), this));
    controls->addWidget(pair_);
    controls->addStretch(1);
    lay->addLayout(controls);
    score_ = new TextLine(tr("Score at (1000000, 1000000): −0.000000000"), this);
    score_->setObjectName(QStringLiteral("formulaScore"));
    lay->addWidget(score_);

    auto* content = new QWidget(this);
    auto* cl = new QVBoxLayout(content);
    cl->setContentsMargins(0, 0, 0, 0);
    defs_ = new FormulaView(content);
    defs_->setObjectName(QStringLiteral("formulaDefinitions"));
    nums_ = new FormulaView(content);
    nums_->setObjectName(QStringLiteral("formulaNumbers"));
    cl->addWidget(defs_);
    cl->addWidget(nums_);
    cl->addStretch(1);
    auto* scroll = new QScrollArea(this);
    scroll->setWidget(content);
    scroll->setWidgetResizable(true);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    lay->addWidget(scroll, 1);

    wheelOnlyWhenFocused(this);
    for (auto* s : {query_, key_, pair_}) connect(s, &QSpinBox::valueChanged, this, &FormulaPanel::refresh);
    connect(defs_, &FormulaView::resized, this, &FormulaPanel::refresh);   // drawn again for the new width
    connect(scene_, &Scene::changed, this, &FormulaPanel::refresh);
    connect(scene_, &Scene::activeConfigChanged, this, &FormulaPanel::refresh);
    refresh();
}

void FormulaPanel::setFocusPositions(std::int64_t query, std::int64_t key, int pair) {
    const QSignalBlocker a(query_), b(key_), c(pair_);
    query_->setValue(int(query));
    key_->setValue(int(key));
    pair_->setValue(pair);
    refresh();
}

FormulaPanel::~FormulaPanel() {
    pending_.reset();
    pool_.waitForDone();
}

void FormulaPanel::refresh() {
    const SceneParams& s = scene_->params();
    const int maxPos = int(std::min<std::int64_t>(s.length - 1, 1 << 30));
    const int cfg = std::clamp(scene_->activeConfig(), 0, int(s.methods.size()) - 1);
    {
        // QAbstractSpinBox::setRange always asks for a new layout (updateGeometry), which during
        // a slider drag would re-lay and repaint the whole dock and main window on every edit:
        // set a range only when it changes.
        const auto setRange = [](QSpinBox* box, int hi) {
            if (box->minimum() == 0 && box->maximum() == hi) return;
            const QSignalBlocker b(box);
            box->setRange(0, hi);
        };
        setRange(query_, std::max(0, maxPos));
        setRange(key_, std::max(0, maxPos));
        const ScoreParams p = effectiveParams(s, cfg);
        int pairs = std::max(1, pairCount(p));
        if (p.method == Method::Rope && !configProblem(s, cfg)) pairs = std::max(1, p.ropeParams().rotaryDim() / 2);
        setRange(pair_, pairs - 1);
    }
    if (cooldown_->isActive()) {
        dirty_ = true;   // asked again when the cooldown ends
        return;
    }
    request();
}

void FormulaPanel::request() {
    dirty_ = false;
    cooldown_->start();
    Request r;
    r.scene = scene_->params();
    r.config = scene_->activeConfig();
    r.focus = FormulaFocus{query_->value(), key_->value(), pair_->value()};
    const SceneParams& s = scene_->params();
    r.theme = themeByName(s.view.theme, s.view.fontScale);
    r.formulaPt = r.theme.name == QLatin1String("projector") ? 20 : 14;
    r.width = defs_->isVisible() ? defs_->width() : 0;   // hidden: no picture (drawn when shown)
    r.devicePixelRatio = defs_->devicePixelRatioF();
    r.reuseDefinitions = defs_->formulas();
    r.reuseNumbers = nums_->formulas();
    if (running_) pending_ = std::move(r);   // newest wins: only the last request runs next
    else start(std::move(r));
}

void FormulaPanel::start(Request request) {
    running_ = true;
    QPointer<FormulaPanel> self(this);
    pool_.start([self, request = std::move(request)] {
        // Formulas follow the views, never compete with them for a core: idle priority (Linux:
        // SCHED_IDLE) runs this only on a core the scheduler's workers and the GUI leave free.
        QThread::currentThread()->setPriority(QThread::IdlePriority);
        // The sheet, then both views' pictures: the GUI thread only copies pixels.
        Result result;
        result.sheet = formulaSheet(request.scene, request.config, request.focus);
        const FormulaSheet& sh = result.sheet;
        result.definitions = drawSheet(sheetContent(sh.title, sh.definitions, {}, request.theme, request.formulaPt, request.reuseDefinitions),
                                       request.width, request.devicePixelRatio);
        result.numbers = drawSheet(sheetContent(tr("With the current numbers (query %1, key %2, pair %3)").arg(sh.focus.query).arg(sh.focus.key).arg(sh.focus.pair),
                                                sh.numbers, sh.note, request.theme, request.formulaPt, request.reuseNumbers),
                                   request.width, request.devicePixelRatio);
        QMetaObject::invokeMethod(qApp, [self, result = std::move(result)]() mutable {
            if (!self) return;
            self->running_ = false;
            if (self->pending_) {
                Request next = std::move(*self->pending_);
                self->pending_.reset();
                self->start(std::move(next));   // a newer request supersedes this sheet
                return;
            }
            self->showSheet(std::move(result));
        }, Qt::QueuedConnection);
    });
}

void FormulaPanel::showSheet(Result result) {
    sheet_ = std::move(result.sheet);
    defs_->setDrawing(std::move(result.definitions));
    nums_->setDrawing(std::move(result.numbers));
    score_->setText(sheet_.score ? tr("Score at (%1, %2): %3").arg(sheet_.focus.query).arg(sheet_.focus.key).arg(formatValue(*sheet_.score))
                                      : tr("Score undefined here"));
}

bool FormulaPanel::waitIdle(int timeoutMs) {
    QElapsedTimer t;
    t.start();
    while (running_ || pending_ || dirty_) {
        if (t.elapsed() > timeoutMs) return false;
        QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
        if (running_) QThread::msleep(1);
    }
    return true;
}

}  // namespace poslab::ui
