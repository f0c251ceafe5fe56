#pragma once

#include <QStringList>

namespace sf {

class ChatClient;
class Project;

/// The student models a dialog starts with: those the user last evaluated or refined with, else the embedded
/// model and the project's students whose provider is set up (a new user has neither key nor server, and a run
/// of models they cannot call is all errors).
QStringList defaultStudentModels(const Project &project, const ChatClient *chat);
/// The teacher a dialog starts with: the one last used, else the project's.
QString defaultTeacherModel(const Project &project);
/// Remembers what was just run, for the next dialog's defaults.
void rememberStudentModels(const QStringList &models);
void rememberTeacherModel(const QString &model);

/// Model names as typed: one per line or separated by commas, trimmed, without blanks or repeats.
QStringList parseModelList(const QString &text);

} // namespace sf
