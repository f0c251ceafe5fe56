#include "common/HarnessChoice.h"

#include "agents/Harness.h"
#include "agents/HarnessModels.h"
#include "project/AppSettings.h"
#include "sandbox/Sandbox.h"

#include <QComboBox>
#include <QFormLayout>
#include <QFutureWatcher>
#include <QtConcurrent/QtConcurrentRun>

namespace sf {

namespace {

constexpr int InstalledRow = 0;
constexpr int OwnRow = 1;

QString lookupKey(const QString &harness, const QString &choice)
{
    return harness + u'\n' + choice;
}

} // namespace

HarnessChoice::HarnessChoice(QWidget *parent, const ProviderRegistry *providers)
    : QObject(parent)
    , m_providers(providers)
    , m_harness(new QComboBox(parent))
    , m_cli(new QComboBox(parent))
{
    m_harness->setObjectName(QStringLiteral("harnessChoice"));
    m_harness->addItem(tr("Skillforge's loop"), Harness::Builtin);
    m_harness->addItem(tr("Claude Code (real CLI)"), Harness::ClaudeCode);
    m_harness->addItem(tr("Codex (real CLI)"), Harness::Codex);
    m_harness->setToolTip(tr("Who drives the student model: Skillforge's own loop, or the real agent CLI run in the "
                             "sandbox, with skills installed where that CLI finds them"));
    m_cli->setObjectName(QStringLiteral("harnessCliChoice"));
    m_cli->addItem(QString(), QString());
    m_cli->addItem(QString(), QStringLiteral("path"));
    m_cli->setToolTip(tr("The CLI that scripts/setup installed (pinned, the same for every run), or your own on PATH"));
    const AppSettings settings;
    m_harness->setCurrentIndex(std::max(0, m_harness->findData(settings.lastHarness())));
    m_cli->setCurrentIndex(std::max(0, m_cli->findData(settings.lastHarnessCli())));
    connect(m_harness, &QComboBox::currentIndexChanged, this, &HarnessChoice::choiceChanged);
    connect(m_cli, &QComboBox::currentIndexChanged, this, &HarnessChoice::choiceChanged);
    if (isAgentCli())
        lookForCli();
    updateCliTexts();
}

void HarnessChoice::addRowsTo(QFormLayout *form)
{
    m_form = form;
    form->addRow(tr("Student harness:"), m_harness);
    form->addRow(tr("CLI:"), m_cli);
    form->setRowVisible(m_cli, isAgentCli());
}

QString HarnessChoice::harness() const
{
    return m_harness->currentData().toString();
}

QString HarnessChoice::harnessCli() const
{
    return isAgentCli() ? m_cli->currentData().toString() : QString();
}

bool HarnessChoice::isAgentCli() const
{
    return Harness::isAgentCli(harness());
}

bool HarnessChoice::isLookingForCli() const
{
    return !m_lookingUp.isEmpty();
}

QString HarnessChoice::skillsFolderOf(const QString &harness)
{
    return harness == Harness::Codex ? QStringLiteral(".agents/skills/") : QStringLiteral(".claude/skills/");
}

void HarnessChoice::setEnabled(bool enabled)
{
    m_harness->setEnabled(enabled);
    m_cli->setEnabled(enabled);
}

void HarnessChoice::remember() const
{
    AppSettings settings;
    settings.setLastHarness(harness());
    settings.setLastHarnessCli(m_cli->currentData().toString());
}

void HarnessChoice::choiceChanged()
{
    if (m_form)
        m_form->setRowVisible(m_cli, isAgentCli());
    if (isAgentCli())
        lookForCli();
    updateCliTexts();
    Q_EMIT changed();
}

void HarnessChoice::lookForCli()
{
    const QString harness = this->harness();
    const QString choice = harnessCli();
    const QString key = lookupKey(harness, choice);
    if (m_lookups.contains(key) || m_lookingUp.contains(key))
        return;
    // Asking a binary its version can take seconds the first time: never on the UI thread.
    m_lookingUp.insert(key);
    auto *watcher = new QFutureWatcher<CliLookup>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, key] {
        watcher->deleteLater();
        m_lookingUp.remove(key);
        m_lookups.insert(key, watcher->result());
        updateCliTexts();
        Q_EMIT changed();
    });
    watcher->setFuture(QtConcurrent::run([harness, choice] {
        CliLookup found{findAgentCli(harness, choice), {}};
        sandboxAvailable(&found.noSandbox);
        return found;
    }));
}

void HarnessChoice::updateCliTexts()
{
    const QString harness = this->harness();
    if (!Harness::isAgentCli(harness))
        return;
    const QString label = Harness::label(harness);
    const auto found = [&](const QString &choice) -> QString {
        const QString key = lookupKey(harness, choice);
        if (m_lookingUp.contains(key))
            return tr("looking for it…");
        const auto lookup = m_lookups.constFind(key);
        if (lookup == m_lookups.cend())
            return {};
        return lookup->binary ? QStringLiteral("%1 %2").arg(label, lookup->binary.value->version) : tr("not found");
    };
    const QString installed = found(m_cli->itemData(InstalledRow).toString());
    const QString own = found(m_cli->itemData(OwnRow).toString());
    m_cli->setItemText(InstalledRow, installed.isEmpty() ? tr("The one setup installed (pinned)")
                                                         : tr("The one setup installed (pinned): %1").arg(installed));
    m_cli->setItemText(OwnRow, own.isEmpty() ? tr("My own on PATH") : tr("My own on PATH: %1").arg(own));
}

QList<HarnessChoice::Line> HarnessChoice::lines(const QStringList &models) const
{
    const QString harness = this->harness();
    if (!Harness::isAgentCli(harness))
        return {};
    const QString label = Harness::label(harness);
    QList<Line> lines;
    const QString key = lookupKey(harness, harnessCli());
    const auto lookup = m_lookups.constFind(key);
    if (m_lookingUp.contains(key) || lookup == m_lookups.cend()) {
        lines.append({tr("Looking for %1…").arg(label), true});
    } else if (!lookup->binary) {
        // Core says how to fix it in the command line's words; here the fix is a choice in this dialog.
        QString error = lookup->binary.error;
        error.replace(QStringLiteral("choose your own with --harness-cli path"),
                      tr("choose \"My own on PATH\" under CLI"));
        error.replace(QStringLiteral("leave --harness-cli unset to use the one scripts/setup installs"),
                      tr("choose \"The one setup installed\" under CLI (scripts/setup installs it)"));
        lines.append({tr("%1 cannot be used: %2").arg(label, error), true});
    } else {
        lines.append({tr("%1 %2, %3.").arg(label, lookup->binary.value->version, lookup->binary.value->source)});
        if (!lookup->noSandbox.isEmpty())
            lines.append(
                {tr("%1 runs only in the sandbox, and there is none here: %2.").arg(label, lookup->noSandbox), true});
    }
    if (m_providers) {
        for (const QString &model : models) {
            if (const QString why = whyModelUnfitForHarness(harness, model, *m_providers); !why.isEmpty())
                lines.append({why + u'.', true});
        }
    }
    return lines;
}

QStringList HarnessChoice::statusLines(const QStringList &models) const
{
    QStringList texts;
    for (const Line &line : lines(models))
        texts.append(line.text);
    return texts;
}

QString HarnessChoice::problem(const QStringList &models) const
{
    for (const Line &line : lines(models)) {
        if (line.blocks)
            return line.text;
    }
    return {};
}

} // namespace sf
