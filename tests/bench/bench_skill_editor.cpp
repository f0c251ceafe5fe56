// Measures the skill editor on a generated 5,000-line SKILL.md: keystroke-to-repaint latency (alone, and
// while the debounced preview and validation run and land), preview update time, validation time, and the
// cost of opening the file. Prints figures only; run it by hand (it is not a ctest test):
//   QT_QPA_PLATFORM=offscreen ./bench_skill_editor [--lines N] [--keys N]
#include "skill/MarkdownHighlighter.h"
#include "skill/MarkdownOutline.h"
#include "skill/MarkdownPreview.h"
#include "skill/SkillEditor.h"
#include "skill/SkillValidator.h"
#include "skill/SkillView.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBlock>
#include <algorithm>
#include <cstdio>
#include <functional>
#include <vector>

using namespace sf;

namespace {

struct Stats
{
    double median = 0, p95 = 0, max = 0;
};

Stats stats(std::vector<double> values)
{
    Stats s;
    if (values.empty())
        return s;
    std::sort(values.begin(), values.end());
    const size_t n = values.size();
    s.median = n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2.0;
    s.p95 = values[std::min(n - 1, size_t(double(n) * 0.95))];
    s.max = values.back();
    return s;
}

void print(const char *what, const std::vector<double> &values)
{
    const Stats s = stats(values);
    std::printf("  %-44s n=%-4zu median %7.2f ms   p95 %7.2f ms   max %7.2f ms\n", what, values.size(), s.median, s.p95,
                s.max);
}

double msSince(const QElapsedTimer &timer)
{
    return double(timer.nsecsElapsed()) / 1e6;
}

/// Spins the event loop until @p done or @p timeoutMs; false on timeout.
bool spinUntil(const std::function<bool()> &done, int timeoutMs = 30000)
{
    QElapsedTimer timer;
    timer.start();
    while (!done()) {
        if (timer.elapsed() > timeoutMs)
            return false;
        QCoreApplication::processEvents(QEventLoop::AllEvents);
    }
    return true;
}

/// Counts the paint events a widget receives.
class PaintCounter final : public QObject
{
public:
    int paints = 0;

protected:
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (event->type() == QEvent::Paint)
            ++paints;
        return QObject::eventFilter(watched, event);
    }
};

/// A SKILL.md of about @p lines lines that uses everything the editor highlights and renders.
QString generateSkill(int lines)
{
    QStringList out = {QStringLiteral("---"),
                       QStringLiteral("name: bench-skill"),
                       QStringLiteral("description: Writes and checks fused CUDA kernels for diffusion models. Use it "
                                      "whenever a task asks for a fast, correct CUDA kernel."),
                       QStringLiteral("license: Apache-2.0"),
                       QStringLiteral("---"),
                       QString(),
                       QStringLiteral("# A generated skill for the editor benchmark"),
                       QString()};
    for (int section = 1; out.size() < lines; ++section) {
        out << QStringLiteral("## %1. Section about kernels").arg(section) << QString()
            << QStringLiteral(
                   "A paragraph with **bold**, *emphasis*, `inline code` and a [link](references/ref-%1.md).")
                   .arg(section % 3)
            << QStringLiteral("It goes on for a second line so that wrapping and layout have something to do.")
            << QString() << QStringLiteral("- a list item with `code`") << QStringLiteral("- another item")
            << QStringLiteral("  1. nested and numbered") << QString()
            << QStringLiteral("### %1.1 The kernel").arg(section) << QString() << QStringLiteral("```cuda")
            << QStringLiteral(
                   "__global__ void __launch_bounds__(256) kernel_%1(float* __restrict__ out, const float* x, int n) {")
                   .arg(section)
            << QStringLiteral("  const int i = blockIdx.x * blockDim.x + threadIdx.x; // one element per thread")
            << QStringLiteral("  if (i >= n) return;") << QStringLiteral("  /* a block comment")
            << QStringLiteral("     over two lines */ float v = x[i];")
            << QStringLiteral("  for (int off = 16; off > 0; off >>= 1) v += __shfl_xor_sync(0xffffffff, v, off);")
            << QStringLiteral("  out[i] = v * 0.5f;") << QStringLiteral("}") << QStringLiteral("```") << QString()
            << QStringLiteral("```python") << QStringLiteral("import numpy as np  # the reference")
            << QStringLiteral("def reference(x):") << QStringLiteral("    return np.sqrt((x ** 2).mean()) + 1e-6")
            << QStringLiteral("```") << QString() << QStringLiteral("| shape | bytes | time |")
            << QStringLiteral("|---|---|---|") << QStringLiteral("| 4096 x 4096 | 67.1 MB | 14.0 us |")
            << QStringLiteral("| 4608 x 3072 | 56.6 MB | 11.8 us |") << QString() << QStringLiteral("```bash")
            << QStringLiteral("nvcc -O3 -arch=sm_90 kernel.cu -o kernel && ./kernel \"$N\"") << QStringLiteral("```")
            << QString() << QStringLiteral("> A quote with a note.") << QString();
    }
    out.resize(lines);
    return out.join(u'\n') + u'\n';
}

} // namespace

int main(int argc, char *argv[])
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("skillforge-bench-skill-editor"));
    QStandardPaths::setTestModeEnabled(true);

    QCommandLineParser parser;
    parser.addHelpOption();
    parser.addOption({QStringLiteral("lines"), QStringLiteral("Lines of the generated SKILL.md."), QStringLiteral("N"),
                      QStringLiteral("5000")});
    parser.addOption(
        {QStringLiteral("keys"), QStringLiteral("Keystrokes per phase."), QStringLiteral("N"), QStringLiteral("200")});
    parser.process(app);
    const int lines = parser.value(QStringLiteral("lines")).toInt();
    const int keys = parser.value(QStringLiteral("keys")).toInt();

    QTemporaryDir tmp;
    const QString dir = tmp.filePath(QStringLiteral("bench-skill"));
    QDir().mkpath(QDir(dir).filePath(QStringLiteral("references")));
    for (int i = 0; i < 3; ++i) {
        QFile ref(QDir(dir).filePath(QStringLiteral("references/ref-%1.md").arg(i)));
        if (!ref.open(QIODevice::WriteOnly) || ref.write("# Reference\n\nDetails.\n") < 0)
            return 1;
    }
    const QString text = generateSkill(lines);
    {
        QFile skill(QDir(dir).filePath(QStringLiteral("SKILL.md")));
        if (!skill.open(QIODevice::WriteOnly) || skill.write(text.toUtf8()) < 0)
            return 1;
    }
    std::printf("Skill editor benchmark: SKILL.md with %d lines, %lld KB; Qt %s, platform %s\n", lines,
                static_cast<long long>(text.toUtf8().size() / 1024), qVersion(),
                qPrintable(QGuiApplication::platformName()));

    SkillView view;
    view.resize(1400, 900);
    view.show();
    QElapsedTimer timer;
    timer.start();
    QSignalSpy rendered(view.preview(), &MarkdownPreview::rendered);
    QSignalSpy validated(&view, &SkillView::validated);
    view.openPath(dir);
    const double openMs = msSince(timer);
    if (!spinUntil([&] { return rendered.count() >= 1 && validated.count() >= 1 && !view.isBusy(); }))
        return 1;
    const double readyMs = msSince(timer);
    std::printf("\nOpening\n  open (read, highlight, outline, form)       %7.1f ms\n"
                "  until preview and problems are shown        %7.1f ms\n",
                openMs, readyMs);

    SkillEditor *editor = view.editor();
    PaintCounter counter;
    editor->viewport()->installEventFilter(&counter);
    const auto placeCursor = [&] {
        QTextCursor cursor(editor->document()->findBlockByNumber(lines / 2));
        cursor.movePosition(QTextCursor::EndOfBlock);
        editor->setTextCursor(cursor);
        editor->centerCursor();
        QCoreApplication::processEvents();
    };

    // Phase A: one keystroke at a time, nothing else going on.
    placeCursor();
    std::vector<double> isolated;
    for (int i = 0; i < keys; ++i) {
        const int before = counter.paints;
        timer.restart();
        QTest::keyClick(editor, char('a' + i % 26));
        if (!spinUntil([&] { return counter.paints > before; }, 5000))
            return 1;
        isolated.push_back(msSince(timer));
    }
    spinUntil([&] { return !view.isBusy(); });

    // Phase B: typing at a brisk 20 keys/s with a pause every 20 keys, so that the debounced preview and
    // validation run in the pauses and land while typing resumes. Latency counts from when the key was due.
    placeCursor();
    std::vector<double> typing;
    const int rendersBefore = view.preview()->renderCount();
    const int validationsBefore = int(validated.count());
    QElapsedTimer clock;
    clock.start();
    double due = 0;
    for (int i = 0; i < keys; ++i) {
        due += (i % 20 == 19) ? 400.0 : 50.0;
        spinUntil([&] { return msSince(clock) >= due; });
        const int before = counter.paints;
        QTest::keyClick(editor, i % 20 == 19 ? ' ' : char('a' + i % 26));
        if (!spinUntil([&] { return counter.paints > before; }, 5000))
            return 1;
        typing.push_back(msSince(clock) - due);
    }
    spinUntil([&] { return !view.isBusy(); });
    const int rendersDuring = view.preview()->renderCount() - rendersBefore;
    const int validationsDuring = int(validated.count()) - validationsBefore;

    std::printf("\nKeystroke to repaint (insert a character mid-file, spin until the editor painted)\n");
    print("alone", isolated);
    print("typing 20/s with debounced work landing", typing);
    std::printf("  (during the typing: %d preview renders, %d validations)\n", rendersDuring, validationsDuring);

    // Preview: the render off the UI thread plus showing it, and the wall time from asking to shown.
    std::vector<double> previewTotal;
    std::vector<double> previewUi;
    std::vector<double> previewSlice;
    std::vector<double> previewWall;
    for (int i = 0; i < 10; ++i) {
        const int before = view.preview()->renderCount();
        timer.restart();
        view.preview()->renderNow();
        if (!spinUntil([&] { return view.preview()->renderCount() > before; }))
            return 1;
        previewWall.push_back(msSince(timer));
        previewTotal.push_back(view.preview()->lastRenderMs());
        previewUi.push_back(view.preview()->lastUiMs());
        previewSlice.push_back(view.preview()->lastLongestSliceMs());
    }
    // Validation: the core call itself, and through the view (thread pool and back).
    std::vector<double> validationCore;
    const QString current = editor->toPlainText();
    for (int i = 0; i < 10; ++i) {
        timer.restart();
        const QList<SkillProblem> problems = validateSkill(dir, ValidationProfile::AgentSkills, current);
        validationCore.push_back(msSince(timer));
        if (i == 0)
            std::printf("\n(validation of the edited file: %lld problems)\n", static_cast<long long>(problems.size()));
    }
    std::vector<double> highlightAll;
    std::vector<double> outline;
    for (int i = 0; i < 5; ++i) {
        timer.restart();
        view.highlighter()->rehighlight();
        highlightAll.push_back(msSince(timer));
        timer.restart();
        const QList<OutlineHeading> headings = markdownHeadings(current);
        outline.push_back(msSince(timer));
        if (headings.isEmpty())
            return 1;
    }

    std::printf("\nBackground and debounced work (debounce intervals not included)\n");
    print("preview render + show (lastRenderMs)", previewTotal);
    print("  of which on the UI thread (layout, swap)", previewUi);
    print("  longest single UI-thread slice", previewSlice);
    print("preview wall time, renderNow -> shown", previewWall);
    print("validateSkill (agentskills, live text)", validationCore);
    print("outline (all headings)", outline);
    print("highlight the whole file (on open only)", highlightAll);
    return 0;
}
