#pragma once

#include <QMetaObject>
#include <QObject>
#include <QPointer>
#include <QThreadPool>
#include <memory>
#include <utility>

namespace sf {

/// Runs @p work() on a thread of the global pool and calls @p deliver(result) on the calling thread's event loop
/// afterwards, unless @p context is gone by then. For blocking calls (a scheduler's command line tool) that a UI
/// must not wait on. The result travels as a shared_ptr, so move-only results are fine.
template <typename Work, typename Deliver> void runOffThread(QObject *context, Work work, Deliver deliver)
{
    using Result = decltype(work());
    // The relay lives in this thread until the result reaches it: the worker never posts to an object that a
    // view may delete meanwhile; the QPointer is only read here, on this thread.
    auto *relay = new QObject;
    QPointer<QObject> guard(context);
    QThreadPool::globalInstance()->start(
        [relay, guard, work = std::move(work), deliver = std::move(deliver)]() mutable {
            auto result = std::make_shared<Result>(work());
            QMetaObject::invokeMethod(
                relay,
                [relay, guard, deliver, result] {
                    relay->deleteLater();
                    if (guard)
                        deliver(std::move(*result));
                },
                Qt::QueuedConnection);
        });
}

} // namespace sf
