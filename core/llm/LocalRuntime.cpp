#include "LocalRuntime.h"

#include <QDir>
#include <QFileInfo>

using namespace Qt::StringLiterals;

namespace sf {

namespace {

QString env(const char *name)
{
    return qEnvironmentVariable(name).trimmed();
}

} // namespace

QString LocalRuntime::cacheDir()
{
    if (const QString dir = env("SKILLFORGE_CACHE_DIR"); !dir.isEmpty()) {
        return dir;
    }
    if (const QString xdg = env("XDG_CACHE_HOME"); !xdg.isEmpty()) {
        return xdg + "/skillforge"_L1;
    }
    return QDir::homePath() + "/.cache/skillforge"_L1;
}

QString LocalRuntime::llamaServerPath()
{
    const QString path = env("SKILLFORGE_LLAMA_SERVER");
    return path.isEmpty() ? cacheDir() + "/bin/llama-server"_L1 : path;
}

QString LocalRuntime::modelPath()
{
    const QString path = env("SKILLFORGE_LOCAL_MODEL");
    return path.isEmpty() ? cacheDir() + "/models/gemma-3-270m-q4_k_m.gguf"_L1 : path;
}

QString LocalRuntime::fallbackChatTemplate(const QString &modelPath)
{
    const QString fileName = QFileInfo(modelPath).fileName().toLower();
    if (!fileName.startsWith("gemma-3"_L1) && !fileName.startsWith("gemma3"_L1)) {
        return {};
    }
    // Gemma 3's published template, text only: the system prompt joins the first user turn.
    return uR"TPL({{ bos_token }}
{%- if messages[0]['role'] == 'system' -%}
{%- set first_user_prefix = messages[0]['content'] + '\n\n' -%}
{%- set loop_messages = messages[1:] -%}
{%- else -%}
{%- set first_user_prefix = '' -%}
{%- set loop_messages = messages -%}
{%- endif -%}
{%- for message in loop_messages -%}
{%- set role = 'model' if message['role'] == 'assistant' else message['role'] -%}
{{ '<start_of_turn>' + role + '\n' + (first_user_prefix if loop.first else '') + (message['content'] | trim) + '<end_of_turn>\n' }}
{%- endfor -%}
{%- if add_generation_prompt -%}
{{ '<start_of_turn>model\n' }}
{%- endif -%})TPL"_s;
}

bool LocalRuntime::isInstalled()
{
    return missingReason().isEmpty();
}

QString LocalRuntime::missingReason()
{
    const QFileInfo server(llamaServerPath());
    if (!server.isFile() || !server.isExecutable()) {
        return u"The local model server %1 is missing or not executable; run scripts/setup to install it"_s.arg(
            server.filePath());
    }
    const QFileInfo model(modelPath());
    if (!model.isFile()) {
        return u"The local model %1 is missing; run scripts/setup to install it"_s.arg(model.filePath());
    }
    return {};
}

} // namespace sf
