#pragma once
// The words of the worked examples (core/worked_examples.h computes, this writes): each example's
// title, and each step's title and the sentence that explains it, from the step's id and the
// example's numbers. Translatable (context "WorkedText").
#include "core/worked_examples.h"

#include <QCoreApplication>
#include <QString>

namespace poslab::ui {

class WorkedText {
    Q_DECLARE_TR_FUNCTIONS(WorkedText)
};

QString workedTitle(const WorkedExample& ex);
QString workedStepTitle(const WorkedExample& ex, const WorkedStep& step);
QString workedStepExplanation(const WorkedExample& ex, const WorkedStep& step);

}  // namespace poslab::ui
