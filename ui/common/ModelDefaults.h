#pragma once

#include <QList>
#include <QStringList>
#include <functional>

class QComboBox;
class QToolButton;
class QWidget;

namespace sf {

class ChatClient;
class Project;

/// The student models a dialog starts with: those the user last evaluated or refined with, else the embedded
/// model and the project's students whose provider is set up (a new user has neither key nor server, and a run
/// of models they cannot call is all errors).
QStringList defaultStudentModels(const Project &project, const ChatClient *chat);
/// The teacher a dialog starts with: the one last used, else the project's when its provider is set up, else the
/// first model the pickers offer that can be called, else the project's.
QString defaultTeacherModel(const Project &project, const ChatClient *chat);
/// Remembers what was just run, for the next dialog's defaults and the pickers' recent models.
void rememberStudentModels(const QStringList &models);
void rememberTeacherModel(const QString &model);

/// Model names as typed: one per line or separated by commas, trimmed, without blanks or repeats.
QStringList parseModelList(const QString &text);
/// @p text (a list of models as typed) with @p model added at the end unless it is there, joined by @p separator.
QString withModelAdded(const QString &text, const QString &model, const QString &separator);

/// One model a picker offers, and why it cannot be called as things stand ("" when it can).
struct ModelChoice
{
    QString model;   ///< PROVIDER:MODEL
    QString problem; ///< "", "no key", "not installed", "not set up" or "unknown provider"
    QString detail;  ///< the whole reason, for a tooltip
};

/// What every teacher and student picker offers (Generate, Refine, Trigger Lab, New Evaluation): the models used
/// recently, the embedded local model and the project's teacher and students — those that can be called first, then
/// the others, each marked with why not. Any other PROVIDER:MODEL can still be typed.
QList<ModelChoice> modelChoices(const Project &project, const ChatClient *chat);

/// Fills the editable @p combo with @p choices — "anthropic:claude-opus-4-5 (no key)" in the list for one that
/// cannot be called, the bare name in the field once chosen — and shows @p current in the field.
void offerModels(QComboBox *combo, const QList<ModelChoice> &choices, const QString &current);

/// A "+" button for a field that lists several models: its menu holds @p choices, marked alike, and picking one
/// calls @p add with the model's name.
QToolButton *addModelButton(QWidget *parent, const QList<ModelChoice> &choices,
                            std::function<void(const QString &)> add);

} // namespace sf
