#include "ui/panel/tokenlayouteditor.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

namespace poslab::ui {

namespace {

QString kindName(TokenKind k) {
    switch (k) {
    case TokenKind::Text: return TokenLayoutEditor::tr("Text");
    case TokenKind::Image: return TokenLayoutEditor::tr("Image");
    case TokenKind::Video: return TokenLayoutEditor::tr("Video");
    }
    return {};
}

std::int64_t tokensOf(const TokenSegment& s, int merge) {
    if (s.kind == TokenKind::Text) return s.n;
    if (merge <= 0 || s.h % merge || s.w % merge) return -1;
    return s.t * (s.h / merge) * (s.w / merge);
}

}  // namespace

TokenLayoutEditor::TokenLayoutEditor(Scene* scene, QWidget* parent) : QWidget(parent), scene_(scene) {
    auto* l = new QVBoxLayout(this);
    l->setContentsMargins(0, 0, 0, 0);
    hint_ = new QLabel(tr("No layout: tokens are numbered 0 … N−1. Add text, images and videos to see the three position ids "
                          "(t, h, w) a vision-language model gives each token."),
                       this);
    hint_->setWordWrap(true);
    l->addWidget(hint_);
    rowsLayout_ = new QVBoxLayout;
    rowsLayout_->setContentsMargins(0, 0, 0, 0);
    l->addLayout(rowsLayout_);
    auto* buttons = new QHBoxLayout;
    addText_ = new QPushButton(tr("+ Text"), this);
    addImage_ = new QPushButton(tr("+ Image"), this);
    addVideo_ = new QPushButton(tr("+ Video"), this);
    addText_->setObjectName(QStringLiteral("addTextEntry"));
    addImage_->setObjectName(QStringLiteral("addImageEntry"));
    addVideo_->setObjectName(QStringLiteral("addVideoEntry"));
    addText_->setToolTip(tr("Add text tokens at the end of the sequence"));
    addImage_->setToolTip(tr("Add an image (a grid of patches) at the end of the sequence"));
    addVideo_->setToolTip(tr("Add a video (frames of patches) at the end of the sequence"));
    for (auto* b : {addText_, addImage_, addVideo_}) buttons->addWidget(b);
    buttons->addStretch(1);
    l->addLayout(buttons);
    connect(addText_, &QPushButton::clicked, this, [this] { addEntry(TokenKind::Text); });
    connect(addImage_, &QPushButton::clicked, this, [this] { addEntry(TokenKind::Image); });
    connect(addVideo_, &QPushButton::clicked, this, [this] { addEntry(TokenKind::Video); });
    refresh();
}

TokenLayout TokenLayoutEditor::layout() const {
    const std::string& text = scene_->params().mrope.tokens;
    if (text.empty()) return {};
    auto r = parseTokenLayout(text);
    return r ? r.value() : TokenLayout{};
}

QPushButton* TokenLayoutEditor::addButton(TokenKind kind) const {
    return kind == TokenKind::Text ? addText_ : kind == TokenKind::Image ? addImage_ : addVideo_;
}

QSpinBox* TokenLayoutEditor::fieldControl(int row, int field) const {
    if (row < 0 || row >= rowCount()) return nullptr;
    const auto& f = rows_[static_cast<std::size_t>(row)].fields;
    return field >= 0 && field < static_cast<int>(f.size()) ? f[static_cast<std::size_t>(field)] : nullptr;
}

void TokenLayoutEditor::commit(const QString& text, const QString& field, const TokenLayout& l) {
    if (refreshing_) return;
    scene_->edit(text, field, [&](SceneParams& s) {
        s.mrope.tokens = tokenLayoutText(l);
        if (l.empty()) return;
        // N follows the layout (sceneProblem requires it): the rule's count when it numbers the
        // layout, else the plain count (the views then say what is wrong with the layout).
        if (auto r = mropePositions(l, s.mrope)) {
            s.length = std::clamp<std::int64_t>(r.value().ids.cols(), 1, kMaxLength);
        } else {
            std::int64_t n = 0;
            for (const auto& e : l) n += std::max<std::int64_t>(0, tokensOf(e, std::max(1, s.mrope.merge)));
            s.length = std::clamp<std::int64_t>(n, 1, kMaxLength);
        }
    });
    scene_->finishMerge();
}

void TokenLayoutEditor::addEntry(TokenKind kind) {
    TokenLayout l = layout();
    const int m = std::max(1, scene_->params().mrope.merge);
    if (kind != TokenKind::Text && !l.empty() && l.back().kind == kind) l.push_back({TokenKind::Text, 2, 0, 0, 0});
    TokenSegment s;
    s.kind = kind;
    if (kind == TokenKind::Text) s.n = 8;
    else {
        s.t = kind == TokenKind::Video && scene_->params().mrope.model != MropeModel::Qwen3VL ? 2 : 1;
        s.h = s.w = 4 * m;
    }
    l.push_back(s);
    commit(tr("Add %1 entry").arg(kindName(kind).toLower()), QString(), l);
}

void TokenLayoutEditor::removeEntry(int row) {
    TokenLayout l = layout();
    if (row < 0 || row >= static_cast<int>(l.size())) return;
    l.erase(l.begin() + row);
    commit(tr("Remove token entry"), QString(), l);
}

void TokenLayoutEditor::moveEntry(int row, int delta) {
    TokenLayout l = layout();
    const int to = row + delta;
    if (row < 0 || to < 0 || row >= static_cast<int>(l.size()) || to >= static_cast<int>(l.size())) return;
    std::swap(l[static_cast<std::size_t>(row)], l[static_cast<std::size_t>(to)]);
    commit(tr("Move token entry"), QString(), l);
}

void TokenLayoutEditor::setField(int row, int field, std::int64_t value) {
    TokenLayout l = layout();
    if (row < 0 || row >= static_cast<int>(l.size())) return;
    TokenSegment& s = l[static_cast<std::size_t>(row)];
    if (s.kind == TokenKind::Text) s.n = value;
    else if (field == 0) s.t = value;
    else if (field == 1) s.h = value;
    else s.w = value;
    if (refreshing_) return;
    // Spin-box steps of one field merge into one undo step (the field's path).
    scene_->edit(tr("Change token entry"), QStringLiteral("scene.mrope.tokens.%1.%2").arg(row).arg(field), [&](SceneParams& sc) {
        sc.mrope.tokens = tokenLayoutText(l);
        if (auto r = mropePositions(l, sc.mrope)) sc.length = std::clamp<std::int64_t>(r.value().ids.cols(), 1, kMaxLength);
    });
}

void TokenLayoutEditor::rebuild(const TokenLayout& l) {
    for (auto& r : rows_) delete r.holder;
    rows_.clear();
    kinds_.clear();
    for (std::size_t i = 0; i < l.size(); ++i) {
        const TokenSegment& s = l[i];
        const int row = static_cast<int>(i);
        RowWidgets r;
        r.holder = new QWidget(this);
        r.holder->setObjectName(QStringLiteral("tokenEntry%1").arg(row));
        auto* h = new QHBoxLayout(r.holder);
        h->setContentsMargins(0, 0, 0, 0);
        h->setSpacing(3);
        r.kind = new QLabel(kindName(s.kind), r.holder);
        r.kind->setMinimumWidth(r.kind->fontMetrics().horizontalAdvance(kindName(TokenKind::Video)) + 6);
        h->addWidget(r.kind);
        const auto spin = [&](int field, int lo, int hi, const QString& tip) {
            auto* b = new QSpinBox(r.holder);
            b->setRange(lo, hi);
            b->setKeyboardTracking(false);
            b->setToolTip(tip);
            b->setAccessibleName(tip);
            connect(b, &QSpinBox::valueChanged, this, [this, row, field](int v) { setField(row, field, v); });
            r.fields.push_back(b);
            h->addWidget(b);
            return b;
        };
        if (s.kind == TokenKind::Text) {
            spin(0, 1, 65536, tr("text tokens"));
            h->addWidget(new QLabel(tr("tokens"), r.holder));
        } else {
            spin(0, 1, 512, s.kind == TokenKind::Image ? tr("T (temporal patches)") : tr("T (frames, temporal patches)"));
            h->addWidget(new QLabel(QStringLiteral("×"), r.holder));
            spin(1, 1, 1024, tr("H (patch rows, before merging)"));
            h->addWidget(new QLabel(QStringLiteral("×"), r.holder));
            spin(2, 1, 1024, tr("W (patch columns, before merging)"));
            r.count = new QLabel(r.holder);
            h->addWidget(r.count);
        }
        h->addStretch(1);
        const auto tool = [&](const QString& text, const QString& tip) {
            auto* b = new QToolButton(r.holder);
            b->setText(text);
            b->setToolTip(tip);
            b->setAccessibleName(tip);
            h->addWidget(b);
            return b;
        };
        r.up = tool(QStringLiteral("↑"), tr("Move this entry up"));
        r.down = tool(QStringLiteral("↓"), tr("Move this entry down"));
        r.remove = tool(QStringLiteral("✕"), tr("Remove this entry"));
        connect(r.up, &QToolButton::clicked, this, [this, row] { moveEntry(row, -1); });
        connect(r.down, &QToolButton::clicked, this, [this, row] { moveEntry(row, +1); });
        connect(r.remove, &QToolButton::clicked, this, [this, row] { removeEntry(row); });
        rowsLayout_->addWidget(r.holder);
        rows_.push_back(r);
        kinds_.push_back(s.kind);
    }
}

void TokenLayoutEditor::refresh() {
    refreshing_ = true;
    const TokenLayout l = layout();
    std::vector<TokenKind> kinds;
    for (const auto& s : l) kinds.push_back(s.kind);
    if (kinds != kinds_) rebuild(l);
    const MropeParams& m = scene_->params().mrope;
    const int merge = std::max(1, m.merge);
    for (std::size_t i = 0; i < l.size(); ++i) {
        const TokenSegment& s = l[i];
        RowWidgets& r = rows_[i];
        const auto set = [](QSpinBox* b, std::int64_t v) {
            if (b->value() != v) {
                const QSignalBlocker block(b);
                b->setValue(static_cast<int>(v));
            }
        };
        if (s.kind == TokenKind::Text) {
            set(r.fields[0], s.n);
        } else {
            r.fields[1]->setSingleStep(merge);
            r.fields[2]->setSingleStep(merge);
            set(r.fields[0], s.t);
            set(r.fields[1], s.h);
            set(r.fields[2], s.w);
            const std::int64_t n = tokensOf(s, merge);
            r.count->setText(n < 0 ? tr("(H, W: multiples of %1)").arg(merge) : tr("→ %1 tokens").arg(n));
        }
        r.up->setEnabled(i > 0);
        r.down->setEnabled(i + 1 < l.size());
    }
    hint_->setVisible(l.empty());
    refreshing_ = false;
}

}  // namespace poslab::ui
