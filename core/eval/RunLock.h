#pragma once

#include <QString>
#include <memory>
#include <optional>
#include <variant>

namespace sf {

/**
 * The one writer of a run folder. Whoever appends to a run's results.jsonl holds an exclusive lock on its
 * `.writer.lock` (an open file description lock, fcntl(2)), so a second `eval --resume` of the same run, from another
 * terminal or the GUI, is refused instead of running the items again and appending duplicates. The kernel releases the
 * lock when the holder's process ends, however it ends, so a crash never leaves a run locked. Readers never need it.
 */
class RunLock final
{
public:
    /// Takes the lock of @p runDir for this process, recording who holds it; or says who already does.
    static std::variant<std::shared_ptr<RunLock>, QString> acquire(const QString &runDir);
    /// Who is writing @p runDir now ("skillforge eval, pid 4242 on host, since …"), or nothing when no one is.
    static std::optional<QString> holder(const QString &runDir);

    ~RunLock();
    RunLock(const RunLock &) = delete;
    RunLock &operator=(const RunLock &) = delete;

private:
    explicit RunLock(int fd)
        : m_fd(fd)
    {
    }

    int m_fd;
};

} // namespace sf
