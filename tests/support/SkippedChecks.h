#pragma once

#include <QCoreApplication>
#include <QStringList>
#include <QTest>

#include <cstdio>

namespace sf::test {

/// The checks of this test executable that were skipped, each as "function: reason".
inline QStringList &skippedChecks()
{
    static QStringList checks;
    return checks;
}

/// Runs @p test and turns "everything that ran passed, but something was skipped" into exit code 77.
/// QSKIP alone leaves QtTest's exit code at 0, which ctest counts as a pass; 77 is what ctest reports
/// as skipped. A failure still fails: its exit code is kept.
inline int execCountingSkips(QObject *test, int argc, char **argv)
{
    const int failures = QTest::qExec(test, argc, argv);
    if (failures != 0 || skippedChecks().isEmpty())
        return failures;
    for (const QString &check : std::as_const(skippedChecks()))
        std::fprintf(stderr, "SKIP: %s\n", qPrintable(check));
    return 77;
}

} // namespace sf::test

/// QSKIP that is remembered, so that SF_TEST_GUILESS_MAIN reports the executable as skipped, not passed.
#define SF_SKIP(reason)                                                                                                \
    do {                                                                                                               \
        const QByteArray sfSkipReason(reason);                                                                         \
        sf::test::skippedChecks().append(QString::fromLatin1(QTest::currentTestFunction()) + QStringLiteral(": ")      \
                                         + QString::fromUtf8(sfSkipReason));                                           \
        QSKIP(sfSkipReason.constData());                                                                               \
    } while (false)

#define SF_TEST_GUILESS_MAIN(TestClass)                                                                                \
    int main(int argc, char *argv[])                                                                                   \
    {                                                                                                                  \
        QCoreApplication app(argc, argv);                                                                              \
        TestClass test;                                                                                                \
        QTEST_SET_MAIN_SOURCE_PATH                                                                                     \
        return sf::test::execCountingSkips(&test, argc, argv);                                                         \
    }
