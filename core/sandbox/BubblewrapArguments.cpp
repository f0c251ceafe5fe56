#include "BubblewrapArguments.h"

#include <QDir>
#include <QFileInfo>

namespace sf {

namespace {

// The parts of /etc that ordinary programs need to start (dynamic loader, user names, time zone);
// the rest of /etc, /home, /root and /run stay out of sight.
const char *const kEtcFiles[] = {"/etc/alternatives",  "/etc/ld.so.cache", "/etc/ld.so.conf",
                                 "/etc/ld.so.conf.d",  "/etc/passwd",      "/etc/group",
                                 "/etc/nsswitch.conf", "/etc/localtime",   "/etc/mime.types"};

void add(QStringList &out, std::initializer_list<QString> words)
{
    out.append(QStringList(words));
}

} // namespace

QProcessEnvironment defaultSandboxEnvironment(const QString &workspace)
{
    QProcessEnvironment environment;
    environment.insert(QStringLiteral("PATH"), QStringLiteral("/usr/local/bin:/usr/bin:/bin"));
    environment.insert(QStringLiteral("HOME"), workspace.isEmpty() ? QStringLiteral("/tmp") : workspace);
    environment.insert(QStringLiteral("LANG"), QStringLiteral("C.UTF-8"));
    environment.insert(QStringLiteral("TMPDIR"), QStringLiteral("/tmp"));
    return environment;
}

QStringList bubblewrapArguments(const SandboxSpec &spec)
{
    QStringList args;
    // Namespaces: no network, no view of other processes; an unprivileged uid with no capabilities,
    // even when Skillforge itself runs as root.
    add(args, {QStringLiteral("--unshare-all"), QStringLiteral("--unshare-user"), QStringLiteral("--uid"),
               QStringLiteral("65534"), QStringLiteral("--gid"), QStringLiteral("65534"), QStringLiteral("--cap-drop"),
               QStringLiteral("ALL"), QStringLiteral("--die-with-parent"), QStringLiteral("--new-session"),
               QStringLiteral("--hostname"), QStringLiteral("sandbox")});

    add(args, {QStringLiteral("--ro-bind"), QStringLiteral("/usr"), QStringLiteral("/usr")});
    // Debian's merged /usr: the top-level folders are links into it. Elsewhere they are real folders.
    for (const QString &top : {QStringLiteral("bin"), QStringLiteral("sbin"), QStringLiteral("lib"),
                               QStringLiteral("lib32"), QStringLiteral("lib64")}) {
        const QFileInfo info(u'/' + top);
        if (info.isSymLink()) {
            add(args, {QStringLiteral("--symlink"), info.symLinkTarget(), info.filePath()});
        } else if (info.isDir()) {
            add(args, {QStringLiteral("--ro-bind"), info.filePath(), info.filePath()});
        }
    }
    for (const char *path : kEtcFiles) {
        const QString etc = QString::fromLatin1(path);
        add(args, {QStringLiteral("--ro-bind-try"), etc, etc});
    }
    add(args, {QStringLiteral("--dev"), QStringLiteral("/dev"), QStringLiteral("--proc"), QStringLiteral("/proc"),
               QStringLiteral("--tmpfs"), QStringLiteral("/tmp")});

    if (spec.allowGpu) {
        const QDir dev(QStringLiteral("/dev"));
        for (const QString &name :
             dev.entryList({QStringLiteral("nvidia*")}, QDir::System | QDir::Dirs | QDir::NoDotAndDotDot)) {
            add(args, {QStringLiteral("--dev-bind"), dev.filePath(name), dev.filePath(name)});
        }
        // The CUDA runtime finds the device's PCI details under /sys.
        add(args, {QStringLiteral("--ro-bind-try"), QStringLiteral("/sys"), QStringLiteral("/sys")});
    }
    for (const QString &path : spec.readOnlyPaths) {
        const QString absolute = QFileInfo(path).absoluteFilePath();
        add(args, {QStringLiteral("--ro-bind"), absolute, absolute});
    }
    for (const SandboxSpec::WritableMount &mount : spec.writableMounts) {
        const QString absolute = QFileInfo(mount.host).absoluteFilePath();
        add(args, {QStringLiteral("--bind"), absolute, mount.inside.isEmpty() ? absolute : mount.inside});
    }
    if (!spec.workspace.isEmpty()) {
        const QString workspace = QFileInfo(spec.workspace).absoluteFilePath();
        const QString inside = spec.workspaceMountPoint.isEmpty() ? workspace : spec.workspaceMountPoint;
        add(args, {QStringLiteral("--bind"), workspace, inside, QStringLiteral("--chdir"), inside});
    } else {
        add(args, {QStringLiteral("--chdir"), QStringLiteral("/tmp")});
    }

    const QProcessEnvironment environment =
        spec.environment.isEmpty() ? defaultSandboxEnvironment(spec.workspace) : spec.environment;
    args << QStringLiteral("--clearenv");
    const QStringList names = environment.keys();
    for (const QString &name : names) {
        add(args, {QStringLiteral("--setenv"), name, environment.value(name)});
    }

    args << QStringLiteral("--") << spec.program << spec.arguments;
    return args;
}

} // namespace sf
