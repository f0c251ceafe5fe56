#pragma once

#include "common/LoadError.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QString>
#include <optional>
#include <variant>

namespace sf {

/// skill_meta.json, as huggingface/upskill writes it next to SKILL.md (reference/upskill.md section 2):
/// {"metadata": {version, generated_by, generated_at, source_task, test_pass_rate, license,
/// compatibility, candidate_id}, "tests": [...]}. Fields Skillforge does not know are kept in `raw` and
/// written back unchanged.
struct SkillMeta
{
    QString version;
    QString generatedBy;
    QString generatedAt;
    QString sourceTask;
    std::optional<double> testPassRate; ///< null in the file when unknown
    QString license;
    QString compatibility;
    QString candidateId;
    QJsonArray tests;
    QJsonObject raw; ///< the whole object as read; the fields above overwrite their places on write
};

/// Reads <skillDir>/skill_meta.json; a missing file gives an empty SkillMeta, a broken one a LoadError.
std::variant<SkillMeta, LoadError> readSkillMeta(const QString &skillDir);
/// Writes <skillDir>/skill_meta.json atomically; "" or an error. Empty optional fields are left out
/// unless the file had them.
QString writeSkillMeta(const QString &skillDir, const SkillMeta &meta);

} // namespace sf
