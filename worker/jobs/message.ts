/**
 * The one message type of the jobs queue and its dead-letter queue. The message names the
 * job; the job's input stays in Postgres (jobs.input), so messages are small whatever the
 * input size (a Queues message holds at most 128 KB) and a redelivered message always runs
 * the input that was accepted.
 */
import { z } from "zod";
import { JOB_KINDS } from "../../schema/tables";

export type JobKind = (typeof JOB_KINDS)[number];

export const jobMessage = z.object({
  job_id: z.uuid(),
  user_id: z.uuid(),
  kind: z.enum(JOB_KINDS),
});
export type JobMessage = z.output<typeof jobMessage>;

/**
 * A batch from a queue whose name ends in "-dlq" is dead letters (wrangler.toml names the
 * dead-letter queue `<jobs queue>-dlq` in every environment).
 */
export const isDeadLetterQueue = (queueName: string) => queueName.endsWith("-dlq");
