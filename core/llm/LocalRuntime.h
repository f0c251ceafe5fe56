#pragma once

#include <QString>

namespace sf {

/**
 * The embedded local model runtime: llama-server and the GGUF model that `scripts/setup-local-model`
 * installs into the user's cache. Which model that is lives in one place,
 * `resources/local-model/local-model.json` (compiled in here and read by the installer), so another
 * GGUF is a change of that file — or of $SKILLFORGE_LOCAL_MODEL for one machine.
 * Paths are resolved from the environment rather than QStandardPaths because tests switch
 * QStandardPaths to test mode and must still find the real runtime.
 */
class LocalRuntime final
{
public:
    LocalRuntime() = delete;

    /** Requests the embedded server decodes at once; the `local` provider sends no more than this. */
    static constexpr int slots = 4;

    /** $SKILLFORGE_CACHE_DIR, else $XDG_CACHE_HOME/skillforge, else ~/.cache/skillforge. */
    static QString cacheDir();
    /** $SKILLFORGE_LLAMA_SERVER, else <cache>/bin/llama-server. */
    static QString llamaServerPath();
    /** $SKILLFORGE_LOCAL_MODEL, else <cache>/models/<the manifest's file>. */
    static QString modelPath();

    /** The model's short name, as in `local:<name>` ("qwen2.5-coder-1.5b"). */
    static QString modelName();
    /** `local:` + modelName(): what users pick as a student or teacher. */
    static QString qualifiedModelName();
    /** What a person reads: "Qwen2.5-Coder-1.5B-Instruct (Q4_K_M)". */
    static QString displayName();
    /** The context the model was trained on, in tokens: the most worth giving llama-server. */
    static int trainedContextTokens();

    static bool isInstalled();
    /** Why isInstalled() is false, naming the missing file; empty when installed. */
    static QString missingReason();
};

} // namespace sf
