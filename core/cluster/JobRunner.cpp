#include "JobRunner.h"

namespace sf {

ClusterJobResult LocalJobRunner::run(const ClusterJob &job)
{
    ClusterJobResult result = runClusterJob(job);
    result.where = QStringLiteral("local");
    return result;
}

} // namespace sf
