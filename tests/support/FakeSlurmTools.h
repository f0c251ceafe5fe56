#pragma once

#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QString>
#include <QTemporaryDir>
#include <QtGlobal>

namespace sf::test {

/// PATH for as long as this lives: @p path, then what it was.
class ScopedPath
{
public:
    explicit ScopedPath(const QString &path)
        : m_saved(qgetenv("PATH"))
    {
        qputenv("PATH", path.toUtf8());
    }
    ~ScopedPath() { qputenv("PATH", m_saved); }
    ScopedPath(const ScopedPath &) = delete;
    ScopedPath &operator=(const ScopedPath &) = delete;

private:
    QByteArray m_saved;
};

/**
 * Slurm's client tools as small shell scripts first on PATH, for tests of what Skillforge does with Slurm's answers
 * where no cluster runs: each one logs how it was called; sbatch answers as told (a job id, or a refusal on stderr
 * with exit 1), squeue prints what it is told, scancel and sacct only log. The real cluster tests live in
 * tests/cluster/.
 */
class FakeSlurmTools
{
public:
    FakeSlurmTools()
        : m_path(m_dir.path() + u':' + QString::fromUtf8(qgetenv("PATH")))
    {
        for (const char *tool : {"sbatch", "squeue", "scancel", "sacct"}) {
            const QString name = QString::fromLatin1(tool);
            write(name, QStringLiteral("#!/bin/sh\nPATH=/usr/bin:/bin\nD='%1'\n"
                                       "echo \"%2 $*\" >> \"$D/calls.log\"\n"
                                       "[ -t 0 ] || cat > /dev/null\n"
                                       "cat \"$D/%2.err\" >&2 2>/dev/null\n"
                                       "cat \"$D/%2.out\" 2>/dev/null\n"
                                       "exit $(cat \"$D/%2.exit\" 2>/dev/null || echo 0)\n")
                            .arg(m_dir.path(), name)
                            .toUtf8());
            QFile::setPermissions(m_dir.filePath(name), QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        }
        write(QStringLiteral("sacct.exit"), "1\n");
        acceptAs(QStringLiteral("4242"));
    }

    /// sbatch takes every job (and --test-only); a submission gets @p jobId.
    void acceptAs(const QString &jobId)
    {
        write(QStringLiteral("sbatch.out"), jobId.toUtf8() + '\n');
        write(QStringLiteral("sbatch.err"), {});
        write(QStringLiteral("sbatch.exit"), "0\n");
    }
    /// sbatch refuses with @p stderrText, as Slurm does.
    void refuse(const QByteArray &stderrText)
    {
        write(QStringLiteral("sbatch.out"), {});
        write(QStringLiteral("sbatch.err"), stderrText);
        write(QStringLiteral("sbatch.exit"), "1\n");
    }
    /// What squeue prints ("ID|STATE|REASON" lines).
    void setQueue(const QByteArray &lines) { write(QStringLiteral("squeue.out"), lines); }
    /// Every call so far, one line each ("sbatch --parsable ...").
    QString calls() const
    {
        QFile file(m_dir.filePath(QStringLiteral("calls.log")));
        return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
    }
    /// PATH with these tools first.
    QString path() const { return m_path; }

private:
    void write(const QString &name, const QByteArray &content)
    {
        QFile file(m_dir.filePath(name));
        if (file.open(QIODevice::WriteOnly | QIODevice::Truncate))
            file.write(content);
    }

    QTemporaryDir m_dir;
    QString m_path;
};

} // namespace sf::test
