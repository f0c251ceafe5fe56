#include "kernels/KernelVerdictView.h"

#include "common/Theme.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QFontDatabase>
#include <QHeaderView>
#include <QLabel>
#include <QLineSeries>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QSplitter>
#include <QStackedWidget>
#include <QTabWidget>
#include <QTableWidget>
#include <QTextBlock>
#include <QVBoxLayout>
#include <QValueAxis>
#include <algorithm>

namespace sf {

namespace {

/// A table whose @p stretched column (a kernel's or a shape's name, a failure's text) takes the room the numbers
/// leave; the numbers keep their own widths, so a last column such as "Spill loads (B)" does not take it instead.
QTableWidget *makeTable(const QStringList &headers, int stretched, QWidget *parent)
{
    auto *table = new QTableWidget(0, int(headers.size()), parent);
    table->setHorizontalHeaderLabels(headers);
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->verticalHeader()->setVisible(false);
    table->setTextElideMode(Qt::ElideMiddle);
    QHeaderView *header = table->horizontalHeader();
    header->setStretchLastSection(false);
    header->setSectionResizeMode(QHeaderView::ResizeToContents);
    header->setSectionResizeMode(stretched, QHeaderView::Stretch);
    return table;
}

/// A tab's page: its content, or in its place a sentence that says why it is empty.
QStackedWidget *withEmptyNote(QWidget *content, QLabel *note, QWidget *parent)
{
    note->setWordWrap(true);
    note->setAlignment(Qt::AlignCenter);
    note->setMargin(24);
    note->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *stack = new QStackedWidget(parent);
    stack->addWidget(content);
    stack->addWidget(note);
    return stack;
}

void setRow(QTableWidget *table, int row, const QStringList &cells)
{
    for (int column = 0; column < cells.size(); ++column) {
        auto *item = new QTableWidgetItem(cells[column]);
        item->setToolTip(cells[column]);
        if (column > 0)
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        table->setItem(row, column, item);
    }
}

QString number(double v, int precision = 3)
{
    return QString::number(v, 'g', precision);
}

/// What the kernel achieved of the device's peak bandwidth and FP32 rate; "" from a runner that did not say.
QString ofPeak(const KernelTimingRow &t)
{
    if (t.fractionOfPeakBandwidth <= 0 && t.fractionOfPeakCompute <= 0)
        return {};
    return QStringLiteral("%1% bandwidth · %2% FP32")
        .arg(number(t.fractionOfPeakBandwidth * 100, 3), number(t.fractionOfPeakCompute * 100, 2));
}

} // namespace

KernelVerdictView::KernelVerdictView(QWidget *parent)
    : QWidget(parent)
    , m_status(new QLabel(this))
    , m_tabs(new QTabWidget(this))
    , m_source(new QPlainTextEdit(this))
    , m_diagnostics(new QListWidget(this))
    , m_resources(makeTable({tr("Kernel"), tr("Arch"), tr("Registers"), tr("Shared (B)"), tr("Stack (B)"),
                             tr("Spill stores (B)"), tr("Spill loads (B)")},
                            0, this))
    , m_correctness(makeTable({tr("Shape"), tr("Seed"), tr("Result"), tr("Max abs error"), tr("Max rel error"),
                               tr("Rel. L2 error"), tr("Mismatches"), tr("Why")},
                              7, this))
    , m_timing(makeTable({tr("Shape"), tr("Size"), tr("Candidate (µs)"), tr("95% interval"), tr("Baseline (µs)"),
                          tr("Speedup"), tr("GB/s"), tr("Speed of light"), tr("Of peak"), tr("Flags")},
                         9, this))
    , m_resourcesNote(new QLabel(this))
    , m_correctnessNote(new QLabel(this))
    , m_timingNote(new QLabel(this))
    , m_chart(new QChart)
{
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_source->setReadOnly(true);
    m_source->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_source->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_source->setAccessibleName(tr("Candidate source"));
    m_diagnostics->setAccessibleName(tr("Compiler messages"));
    connect(m_diagnostics, &QListWidget::currentRowChanged, this, [this](int row) {
        const int line = row >= 0 ? m_diagnostics->item(row)->data(Qt::UserRole).toInt() : 0;
        if (line <= 0)
            return;
        QTextCursor cursor(m_source->document()->findBlockByNumber(line - 1));
        m_source->setTextCursor(cursor);
        m_source->centerCursor();
    });

    m_sourceSplit = new QSplitter(Qt::Vertical, this);
    m_sourceSplit->addWidget(m_source);
    m_sourceSplit->addWidget(m_diagnostics);
    m_sourceSplit->setStretchFactor(0, 3);
    m_sourceSplit->setStretchFactor(1, 1);
    m_sourceSplit->setChildrenCollapsible(false);
    // However many messages a failed build leaves, the source keeps room to read the lines they point at.
    m_source->setMinimumHeight(m_source->fontMetrics().lineSpacing() * MinSourceLines);

    m_chart->setTitle(tr("Speedup over the baseline and fraction of the speed-of-light bound"));
    auto *chartView = new QChartView(m_chart, this);
    chartView->setRenderHint(QPainter::Antialiasing);
    chartView->setMinimumHeight(150);
    auto *timingSplit = new QSplitter(Qt::Vertical, this);
    timingSplit->addWidget(m_timing);
    timingSplit->addWidget(chartView);

    m_tabs->addTab(m_sourceSplit, tr("Source"));
    m_tabs->addTab(withEmptyNote(m_resources, m_resourcesNote, this), tr("Resources"));
    m_tabs->addTab(withEmptyNote(m_correctness, m_correctnessNote, this), tr("Correctness"));
    m_tabs->addTab(withEmptyNote(timingSplit, m_timingNote, this), tr("Timing"));

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_status);
    layout->addWidget(m_tabs, 1);
    clear();
}

QString KernelVerdictView::statusText() const
{
    return m_status->text();
}

void KernelVerdictView::clear()
{
    m_status->setText(tr("No candidate checked yet."));
    m_source->clear();
    m_diagnostics->clear();
    m_diagnostics->setVisible(false);
    for (QTableWidget *table : {m_resources, m_correctness, m_timing})
        table->setRowCount(0);
    m_chart->removeAllSeries();
    for (QAbstractAxis *axis : m_chart->axes())
        m_chart->removeAxis(axis);
    const QString unchecked = tr("Not checked yet: Check builds the candidate and runs it against the task's "
                                 "reference.");
    setEmptyNote(m_resourcesNote, unchecked);
    setEmptyNote(m_correctnessNote, unchecked);
    setEmptyNote(m_timingNote, unchecked);
}

void KernelVerdictView::setEmptyNote(QLabel *note, const QString &why)
{
    note->setText(why);
    auto *stack = static_cast<QStackedWidget *>(note->parentWidget());
    stack->setCurrentIndex(why.isEmpty() ? 0 : 1);
}

QString KernelVerdictView::emptyNote(const QLabel *note)
{
    const auto *stack = static_cast<const QStackedWidget *>(note->parentWidget());
    return stack->currentWidget() == note ? note->text() : QString();
}

void KernelVerdictView::explainEmptyTabs(const KernelVerdict &verdict)
{
    // Each empty tab says why it is empty, from what the check got to.
    QString notBuilt, notRun, notTimed;
    if (verdict.notRun() && !verdict.build.ok) {
        // "not built: nvcc was not found on this machine" said as a sentence.
        QString reason = verdict.reason;
        if (!reason.isEmpty())
            reason[0] = reason[0].toUpper();
        notBuilt = notRun = reason.endsWith(u'.') ? reason : reason + u'.';
    } else if (!verdict.build.ok) {
        notBuilt = notRun = tr("Not run: the build failed. Its messages are on the Source tab.");
    } else if (verdict.notRun()) {
        notRun = tr("Not run: %1. The candidate compiled; correctness and timing need a CUDA device. Choose "
                    "Slurm under \u201cRun heavy work on\u201d, or check it on a machine with a GPU.")
                     .arg(verdict.reason);
    } else if (!verdict.passed() && !verdict.correctness.isEmpty()) {
        notTimed = tr("Not timed: the candidate failed correctness (see the Correctness tab).");
    }
    const QString nothing = tr("Nothing here: %1.").arg(verdict.reason);
    setEmptyNote(m_resourcesNote,
                 verdict.build.resources.isEmpty() ? (notBuilt.isEmpty() ? nothing : notBuilt) : QString());
    setEmptyNote(m_correctnessNote, verdict.correctness.isEmpty() ? (notRun.isEmpty() ? nothing : notRun) : QString());
    setEmptyNote(m_timingNote, verdict.timing.isEmpty() ? (!notRun.isEmpty()     ? notRun
                                                           : !notTimed.isEmpty() ? notTimed
                                                                                 : nothing)
                                                        : QString());
}

void KernelVerdictView::showCandidate(const QString &name, const QString &source)
{
    clear();
    m_status->setText(tr("%1 is not checked yet: Check builds it and runs it against the task's reference.")
                          .arg(name.toHtmlEscaped()));
    m_source->setPlainText(source);
    m_tabs->setCurrentIndex(0);
}

void KernelVerdictView::setVerdict(const KernelVerdict &verdict)
{
    clear();
    const Theme::Status status = verdict.passed()   ? Theme::Status::Pass
                                 : verdict.notRun() ? Theme::Status::Warn
                                                    : Theme::Status::Fail;
    m_status->setText(QStringLiteral("<b style='color:%1'>%2</b> — %3")
                          .arg(Theme::statusTextOnWindow(status).name(), verdict.statusText().toHtmlEscaped(),
                               verdict.reason.toHtmlEscaped()));
    m_status->setToolTip(verdict.evidence());
    showSource(verdict);
    showResources(verdict);
    showCorrectness(verdict);
    showTiming(verdict);
    explainEmptyTabs(verdict);
    // Open where the story is: the errors, the failing cases, or the timing.
    if (!verdict.build.ok && !verdict.build.diagnostics.isEmpty())
        m_tabs->setCurrentIndex(0);
    else if (!verdict.timing.isEmpty() && verdict.passed())
        m_tabs->setCurrentIndex(3);
    else if (!verdict.correctness.isEmpty())
        m_tabs->setCurrentIndex(2);
    else
        m_tabs->setCurrentIndex(1);
}

void KernelVerdictView::showSource(const KernelVerdict &verdict)
{
    m_source->setPlainText(verdict.source);
    QList<QTextEdit::ExtraSelection> marks;
    for (const CompilerDiagnostic &d : verdict.build.diagnostics) {
        const QString where = d.line > 0 ? QStringLiteral("%1:%2").arg(d.file).arg(d.line) : d.file;
        auto *item = new QListWidgetItem(QStringLiteral("%1: %2: %3").arg(where, d.severity, d.message), m_diagnostics);
        item->setData(Qt::UserRole, d.file == verdict.candidateName ? d.line : 0);
        if (d.file != verdict.candidateName || d.line <= 0)
            continue;
        const QTextBlock block = m_source->document()->findBlockByNumber(d.line - 1);
        if (!block.isValid())
            continue;
        QTextEdit::ExtraSelection mark;
        mark.cursor = QTextCursor(block);
        mark.format.setProperty(QTextFormat::FullWidthSelection, true);
        mark.format.setBackground(
            Theme::statusColors(d.severity == u"error" ? Theme::Status::Fail : Theme::Status::Warn).background);
        mark.format.setToolTip(d.message);
        marks << mark;
    }
    for (const SymbolRejection &r : verdict.build.rejectedSymbols)
        new QListWidgetItem(tr("rejected import %1: %2").arg(r.symbol, r.reason), m_diagnostics);
    m_source->setExtraSelections(marks);
    m_diagnostics->setVisible(m_diagnostics->count() > 0);
    if (m_diagnostics->count() > 0) {
        // Three quarters to the source, the rest (a few messages) to the list, whatever it asked for.
        const int total = std::max(m_sourceSplit->height(), m_source->minimumHeight() * 2);
        m_sourceSplit->setSizes({total * 3 / 4, total - total * 3 / 4});
    }
}

void KernelVerdictView::showResources(const KernelVerdict &verdict)
{
    m_resources->setRowCount(int(verdict.build.resources.size()));
    int row = 0;
    for (const KernelResources &k : verdict.build.resources) {
        setRow(m_resources, row++,
               {k.function, k.arch, QString::number(k.registers), QString::number(k.sharedBytes),
                QString::number(k.stackBytes), QString::number(k.spillStoreBytes), QString::number(k.spillLoadBytes)});
    }
    // Kernel names can be long (templates, mangled C++): the name column stretches over what the numbers leave,
    // elided in the middle (the whole name is in the tooltip).
}

void KernelVerdictView::showCorrectness(const KernelVerdict &verdict)
{
    m_correctness->setRowCount(int(verdict.correctness.size()));
    int row = 0;
    for (const KernelCorrectnessRow &c : verdict.correctness) {
        setRow(m_correctness, row,
               {c.shape, QString::number(c.seed), c.passed ? tr("pass") : tr("FAIL"), number(c.maxAbsError),
                number(c.maxRelError), number(c.relL2Error),
                QStringLiteral("%1 / %2").arg(c.mismatches).arg(c.elements), c.failure});
        if (!c.passed)
            m_correctness->item(row, 2)->setForeground(Theme::statusTextOnBase(Theme::Status::Fail));
        ++row;
    }
}

void KernelVerdictView::showTiming(const KernelVerdict &verdict)
{
    m_timing->setRowCount(int(verdict.timing.size()));
    int row = 0;
    auto *speedups = new QBarSet(tr("Speedup over baseline (×)"));
    auto *fractions = new QLineSeries;
    fractions->setName(tr("Fraction of speed-of-light"));
    fractions->setPointsVisible(true);
    QStringList shapes;
    double maxSpeedup = 1.0;
    for (const KernelTimingRow &t : verdict.timing) {
        setRow(m_timing, row++,
               {t.shape, t.dims, number(t.candidateMedianUs, 4),
                QStringLiteral("%1 – %2").arg(number(t.candidateLowUs, 4), number(t.candidateHighUs, 4)),
                number(t.baselineMedianUs, 4), QStringLiteral("%1×").arg(number(t.speedup)), number(t.bandwidthGbs, 4),
                QStringLiteral("%1%").arg(number(t.fractionOfSpeedOfLight * 100, 3)), ofPeak(t),
                t.flags.join(QStringLiteral("; "))});
        *speedups << t.speedup;
        fractions->append(double(shapes.size()), t.fractionOfSpeedOfLight);
        shapes << t.shape;
        maxSpeedup = std::max(maxSpeedup, t.speedup);
    }
    if (shapes.isEmpty()) {
        delete speedups;
        delete fractions;
        return;
    }
    auto *bars = new QBarSeries;
    bars->append(speedups);
    m_chart->addSeries(bars);
    m_chart->addSeries(fractions);
    auto *categories = new QBarCategoryAxis;
    categories->append(shapes);
    auto *speedAxis = new QValueAxis;
    speedAxis->setTitleText(tr("speedup (×)"));
    speedAxis->setRange(0, maxSpeedup * 1.15);
    auto *fractionAxis = new QValueAxis;
    fractionAxis->setTitleText(tr("fraction of speed-of-light"));
    fractionAxis->setRange(0, 1.0);
    m_chart->addAxis(categories, Qt::AlignBottom);
    m_chart->addAxis(speedAxis, Qt::AlignLeft);
    m_chart->addAxis(fractionAxis, Qt::AlignRight);
    bars->attachAxis(categories);
    bars->attachAxis(speedAxis);
    fractions->attachAxis(categories);
    fractions->attachAxis(fractionAxis);
}

} // namespace sf
