#pragma once

#include <QWidget>

class QPlainTextEdit;

namespace sf {

class Project;

/// What every main view (Trace, Skill, Compare, Runs, Kernels) offers the window around it.
class ViewPage : public QWidget
{
    Q_OBJECT

public:
    using QWidget::QWidget;

    /// The project changed (nullptr: none open). Views drop what belonged to the old one.
    virtual void setProject(const Project *project) = 0;
    /// Opens an item of the project in this view.
    virtual void openPath(const QString &path) { Q_UNUSED(path) }
    /// Asks to save unsaved edits; false when the user chose to stay.
    virtual bool maybeSave() { return true; }
    virtual bool save() { return true; }
    virtual bool isModified() const { return false; }
    /// The text the Edit menu acts on (undo, redo, find), if this view has one.
    virtual QPlainTextEdit *textEditor() const { return nullptr; }
    virtual void activateFind() {}
    /// Find and replace, for views whose text can be edited.
    virtual bool canReplace() const { return false; }
    virtual void activateReplace() {}
    /// True while the view is still loading or detecting something in the background.
    virtual bool isBusy() const { return false; }
    /// The run folder this view shows, and a second one it compares it with, if any (File → Export Report… opens
    /// on them).
    virtual QString shownRunDir() const { return {}; }
    virtual QString comparedRunDir() const { return {}; }

Q_SIGNALS:
    void modificationChanged(bool modified);
    /// Asks the window to open the trace file at @p path in the Trace view (an agent CLI's session of a run's item).
    void traceRequested(const QString &path);
};

} // namespace sf
