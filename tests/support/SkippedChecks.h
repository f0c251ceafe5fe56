#pragma once

// The one way a Skillforge test executable ends: SF_TEST_MAIN (a QApplication, or a QGuiApplication where the test
// links only Qt Gui), SF_TEST_GUILESS_MAIN (a core application) or, for a main that checks a prerequisite first,
// sf::test::skipAll and sf::test::execCountingSkips. Every QSKIP is counted and turns the exit code into 77, which
// ctest reports as skipped: QtTest alone exits 0 after a skip, and ctest would count the skipped check as a pass.
// tests/CMakeLists.txt backs this up: any test that prints a skip and exits 0 fails.

#include <QCoreApplication>
#include <QFile>
#include <QRegularExpression>
#include <QStringList>
#include <QTemporaryDir>
#include <QTest>
#include <cstdio>
#include <vector>

namespace sf::test {

/// What a run's TAP log says: how many checks ran (data rows count one each) and which were skipped.
struct SkipCount
{
    int checks = 0;
    QStringList skipped; ///< each as "check: reason"
};

/// Reads QtTest's TAP log. initTestCase and cleanupTestCase count only when they skip (a skip there
/// skips everything).
inline SkipCount countSkips(const QString &tapPath)
{
    SkipCount count;
    QFile file(tapPath);
    if (!file.open(QIODevice::ReadOnly))
        return count;
    static const QRegularExpression result(QStringLiteral(R"(^(?:not )?ok \d+ - (.*?)(?: # SKIP ?(.*))?$)"));
    for (const QByteArray &line : file.readAll().split('\n')) {
        const QRegularExpressionMatch match = result.match(QString::fromUtf8(line));
        if (!match.hasMatch())
            continue;
        const QString check = match.captured(1);
        const bool skipped = match.capturedStart(2) >= 0;
        const bool frame = check == QLatin1String("initTestCase()") || check == QLatin1String("cleanupTestCase()");
        if (frame && !skipped)
            continue;
        ++count.checks;
        if (skipped)
            count.skipped.append(check + QStringLiteral(": ") + match.captured(2));
    }
    return count;
}

/// The text of a skip's reason, whether a test holds it as a QString or a QByteArray (for SF_SKIP_BECAUSE).
inline QByteArray skipText(const QByteArray &reason)
{
    return reason;
}
inline QByteArray skipText(const QString &reason)
{
    return reason.toUtf8();
}
inline QByteArray skipText(const char *reason)
{
    return reason;
}
#define SF_SKIP_BECAUSE(reason) QSKIP(sf::test::skipText(reason).constData())

/// Prints why nothing ran and returns 77, for a main whose prerequisite (a model, a GPU) is missing.
inline int skipAll(const QString &reason)
{
    std::fprintf(stderr, "SKIP: %s\n", qPrintable(reason));
    return 77;
}

/// Runs @p test with QtTest's usual output and a TAP log beside it, then turns any skip into exit code 77
/// with the count of skipped checks printed. A failure keeps QtTest's exit code.
inline int execCountingSkips(QObject *test, int argc, char **argv)
{
    QStringList arguments;
    for (int i = 0; i < argc; ++i)
        arguments.append(QString::fromLocal8Bit(argv[i]));
    // Old-style output options ("-xml", "-o file" without a format) cannot be combined with a second
    // logger; such a run is by hand, and ctest never passes them.
    static const QStringList oldStyleFormats{QStringLiteral("-txt"),      QStringLiteral("-csv"),
                                             QStringLiteral("-xml"),      QStringLiteral("-lightxml"),
                                             QStringLiteral("-junitxml"), QStringLiteral("-xunitxml"),
                                             QStringLiteral("-teamcity"), QStringLiteral("-tap")};
    bool hasOutputOption = false;
    for (int i = 1; i < arguments.size(); ++i) {
        if (oldStyleFormats.contains(arguments[i]))
            return QTest::qExec(test, argc, argv);
        if (arguments[i] == QLatin1String("-o")) {
            if (i + 1 >= arguments.size() || !arguments[i + 1].contains(QLatin1Char(',')))
                return QTest::qExec(test, argc, argv);
            hasOutputOption = true;
        }
    }
    const QTemporaryDir logDir;
    if (!logDir.isValid())
        return QTest::qExec(test, argc, argv);
    const QString tapPath = logDir.filePath(QStringLiteral("checks.tap"));
    if (!hasOutputOption)
        arguments << QStringLiteral("-o") << QStringLiteral("-,txt");
    arguments << QStringLiteral("-o") << tapPath + QStringLiteral(",tap");

    std::vector<QByteArray> storage;
    storage.reserve(arguments.size());
    for (const QString &argument : std::as_const(arguments))
        storage.push_back(argument.toLocal8Bit());
    std::vector<char *> withTap;
    for (QByteArray &argument : storage)
        withTap.push_back(argument.data());
    withTap.push_back(nullptr);

    const int failures = QTest::qExec(test, int(storage.size()), withTap.data());
    const SkipCount count = countSkips(tapPath);
    if (failures != 0 || count.skipped.isEmpty())
        return failures;
    std::fprintf(stderr, "SKIP: %lld of %d checks skipped, so ctest reports this test as skipped, not passed:\n",
                 qlonglong(count.skipped.size()), count.checks);
    for (const QString &check : count.skipped)
        std::fprintf(stderr, "SKIP:   %s\n", qPrintable(check));
    return 77;
}

} // namespace sf::test

// As QTEST_MAIN: a QApplication where the test links Qt Widgets, a QGuiApplication where it links only Qt Gui.
#if defined(QT_WIDGETS_LIB)
#include <QApplication>
#define SF_TEST_APPLICATION QApplication
#elif defined(QT_GUI_LIB)
#include <QGuiApplication>
#define SF_TEST_APPLICATION QGuiApplication
#endif

#ifdef SF_TEST_APPLICATION
#define SF_TEST_MAIN(TestClass)                                                                                        \
    int main(int argc, char *argv[])                                                                                   \
    {                                                                                                                  \
        SF_TEST_APPLICATION app(argc, argv);                                                                           \
        app.setAttribute(Qt::AA_Use96Dpi, true);                                                                       \
        TestClass test;                                                                                                \
        QTEST_SET_MAIN_SOURCE_PATH                                                                                     \
        return sf::test::execCountingSkips(&test, argc, argv);                                                         \
    }
#endif

#define SF_TEST_GUILESS_MAIN(TestClass)                                                                                \
    int main(int argc, char *argv[])                                                                                   \
    {                                                                                                                  \
        QCoreApplication app(argc, argv);                                                                              \
        TestClass test;                                                                                                \
        QTEST_SET_MAIN_SOURCE_PATH                                                                                     \
        return sf::test::execCountingSkips(&test, argc, argv);                                                         \
    }
