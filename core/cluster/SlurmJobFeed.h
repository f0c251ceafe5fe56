#pragma once

#include "JobRunner.h"

#include <memory>

namespace sf {

class Job;

/**
 * Shows on @p job (the Jobs panel's row of an evaluation or a kernel check) the Slurm jobs its heavy work runs as:
 * each job id and its state as the runner's own polls see them (no squeue of its own), and a submission Slurm
 * refused. Cancel on the job runs the runner's cancelAll() (scancel), before any other listener of the request.
 * Does nothing for work done here (a runner that is not Slurm's, or none). @p job lives on the UI thread; the
 * runner reports from its own thread, through queued calls.
 */
void followSlurmJobs(Job *job, const std::shared_ptr<JobRunner> &runner);

} // namespace sf
