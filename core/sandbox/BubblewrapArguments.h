#pragma once

#include "Sandbox.h"

#include <QStringList>

namespace sf {

/** The bwrap command line (after "bwrap") that confines @p spec as Sandbox.h describes. */
QStringList bubblewrapArguments(const SandboxSpec &spec);

/** The environment a sandboxed program gets when its spec names none. */
QProcessEnvironment defaultSandboxEnvironment(const QString &workspace);

} // namespace sf
