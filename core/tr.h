#pragma once
// Words that must stay in the core (a method's title and one-sentence summary, which the command
// line prints too) are marked for translation without Qt: POSLAB_TR_NOOP(context, text) is the
// text itself; lupdate collects it as QT_TRANSLATE_NOOP (app/CMakeLists.txt passes
// -tr-function-alias QT_TRANSLATE_NOOP+=POSLAB_TR_NOOP), and the ui shows it translated with
// QCoreApplication::translate(context, text).
#define POSLAB_TR_NOOP(context, text) text
