#pragma once

#include "eval/TestSuite.h"

#include <QWidget>

class QComboBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QSpinBox;

namespace sf {

/// The fields of one verifier, showing only those its kind uses (a regex has a pattern and an optional file,
/// an llm_judge a rubric, a judge model and a threshold...). Every edit emits the whole edited verifier.
class VerifierForm final : public QWidget
{
    Q_OBJECT

public:
    explicit VerifierForm(QWidget *parent = nullptr);

    /// Shows @p spec without emitting edited().
    void setSpec(const VerifierSpec &spec);
    VerifierSpec spec() const;

    /// "regex /^ok$/ in out.txt": one line saying what the verifier checks.
    static QString summary(const VerifierSpec &spec);
    /// A verifier kind in words ("Answer contains", "Valid JSON"); the file keeps the id ("contains", "json_valid").
    static QString kindLabel(const QString &type);
    /// Why the pattern is not a valid regular expression, or empty.
    QString patternError() const;

Q_SIGNALS:
    void edited(const VerifierSpec &spec);

private:
    void showRowsFor(const QString &type);
    void emitEdited();

    VerifierSpec m_spec; ///< what the form was given: keys it does not show (extra, line) survive edits
    bool m_filling = false;
    QFormLayout *m_form;
    QComboBox *m_type;
    QLineEdit *m_name;
    QPlainTextEdit *m_values;
    QLineEdit *m_pattern;
    QLabel *m_patternError;
    QLineEdit *m_path;
    QPlainTextEdit *m_text;
    QLineEdit *m_command;
    QSpinBox *m_timeout;
    QPlainTextEdit *m_rubric;
    QLineEdit *m_judgeModel;
    QSpinBox *m_threshold;
    QLineEdit *m_task;
    QLineEdit *m_dtype;
};

} // namespace sf
