import { readJob } from "../../../jobs/view";
import { getByIdOperation, json } from "../../operation";
import { Job } from "../../schemas/job";

export const getJobOp = getByIdOperation(
  {
    path: "/v1/jobs/{id}",
    operationId: "getJob",
    tags: ["jobs"],
    summary: "A background job's status, and its result or error once finished",
  },
  json(Job, "The job"),
  readJob,
);
