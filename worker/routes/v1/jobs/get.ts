import { domain } from "../../../context";
import { readJob } from "../../../jobs/view";
import { json, operation } from "../../operation";
import { ERRORS } from "../../schemas/error";
import { Job } from "../../schemas/job";
import { IdParam } from "../../schemas/params";

export const getJobOp = operation(
  {
    method: "get",
    path: "/v1/jobs/{id}",
    operationId: "getJob",
    tags: ["jobs"],
    summary: "A background job's status, and its result or error once finished",
    auth: "wallet",
    request: { params: IdParam },
    responses: { 200: json(Job, "The job"), 404: ERRORS[404] },
  },
  async (c) => c.json(await readJob(domain(c), c.req.valid("param").id), 200),
);
