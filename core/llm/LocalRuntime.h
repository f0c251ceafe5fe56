#pragma once

#include <QString>

namespace sf {

/**
 * Where the embedded local model runtime (llama-server and its GGUF model) is installed by
 * `scripts/setup-local-model`. Resolved from the environment rather than QStandardPaths because
 * tests switch QStandardPaths to test mode and must still find the real runtime.
 */
class LocalRuntime final
{
public:
    LocalRuntime() = delete;

    /** $SKILLFORGE_CACHE_DIR, else $XDG_CACHE_HOME/skillforge, else ~/.cache/skillforge. */
    static QString cacheDir();
    /** $SKILLFORGE_LLAMA_SERVER, else <cache>/bin/llama-server. */
    static QString llamaServerPath();
    /** $SKILLFORGE_LOCAL_MODEL, else <cache>/models/gemma-3-270m-q4_k_m.gguf. */
    static QString modelPath();

    /**
     * A Jinja chat template for models whose GGUF carries none, or an empty string. The bundled
     * Gemma 3 GGUF has no template, and llama-server's ChatML fallback makes Gemma babble.
     */
    static QString fallbackChatTemplate(const QString &modelPath);

    static bool isInstalled();
    /** Why isInstalled() is false, naming the missing file; empty when installed. */
    static QString missingReason();
};

} // namespace sf
