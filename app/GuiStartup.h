#pragma once

#include <QString>

namespace sf {

class LocalModelServer;

/// What the GUI is asked to do at start.
struct GuiOptions
{
    QString project;    ///< folder to open; empty: the last project, else the sample
    bool sample = false; ///< open the bundled sample project (installing it first if needed)
    QString view;        ///< trace|skill|compare|runs|kernels; empty: the last one used
    QString screenshot;  ///< when set: render offscreen, save this PNG and exit
    QString theme;       ///< system|light|dark for this session; empty: the saved preference
    QString readyFile;   ///< when set: written once the window is shown and its views have loaded (for scripts)
};

/// Creates the main window and runs the event loop (or takes the screenshot). Needs a QApplication.
int runGui(const GuiOptions &options);

} // namespace sf
