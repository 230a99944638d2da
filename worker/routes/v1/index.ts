/**
 * Every /v1 operation, in registration order: a static path before a parameterised one
 * that would also match it (/v1/memories/core before /v1/memories/{id}), since the first
 * declared match answers.
 */
import type { Operation } from "../operation";
import { changesOp } from "./changes";
import { contextOp } from "./context";
import { exportOp } from "./export";
import { freeTierInfoOp } from "./free-tier/info";
import { freeTierStatusOp } from "./free-tier/status";
import { grantOp, listGrantsOp, receivedGrantsOp, revokeGrantOp } from "./grants";
import { importOp } from "./import";
import { ingestOp } from "./ingest";
import { getJobOp } from "./jobs/get";
import { BatchUpdateItem, batchUpdateOp } from "./memories/batch-update";
import { batchDeleteOp, bulkDeleteOp } from "./memories/bulk-delete";
import { consolidateOp } from "./memories/consolidate";
import { listCoreOp, pinOp, unpinOp } from "./memories/core";
import { countMemoriesOp } from "./memories/count";
import { deleteMemoryOp } from "./memories/delete";
import { extractOp } from "./memories/extract";
import { getMemoryOp } from "./memories/get";
import { graphOp } from "./memories/graph";
import { historyOp } from "./memories/history";
import { listMemoriesOp } from "./memories/list";
import { createRelationOp, deleteRelationOp, listRelationsOp } from "./memories/relations";
import { searchMemoriesGetOp } from "./memories/search";
import { updateMemoryOp } from "./memories/update";
import { MigrateFile, migrateOp } from "./migrate";
import { namespacesOp } from "./namespaces";
import { recallOp } from "./recall";
import { searchOp } from "./search";
import { statsOp } from "./stats";
import { storeOp } from "./store";
import { storeBatchOp } from "./store/batch";
import { suggestedOp } from "./suggested";
import { tagsOp } from "./tags";
import {
  createWebhookOp,
  deleteWebhookOp,
  getWebhookOp,
  listWebhooksOp,
  testWebhookOp,
  webhookDeliveriesOp,
} from "./webhooks";

export const V1_OPERATIONS: Operation[] = [
  freeTierInfoOp,
  freeTierStatusOp,
  storeOp,
  storeBatchOp,
  importOp,
  recallOp,
  contextOp,
  suggestedOp,
  searchOp,
  ingestOp,
  migrateOp,
  exportOp,
  namespacesOp,
  statsOp,
  tagsOp,
  getJobOp,
  // sharing (docs/sharing.md)
  grantOp,
  listGrantsOp,
  revokeGrantOp,
  receivedGrantsOp,
  // the change feed and webhooks (docs/changes.md)
  changesOp,
  createWebhookOp,
  listWebhooksOp,
  getWebhookOp,
  deleteWebhookOp,
  testWebhookOp,
  webhookDeliveriesOp,
  // /v1/memories/<word> before /v1/memories/{id}
  listMemoriesOp,
  countMemoriesOp,
  searchMemoriesGetOp,
  listCoreOp,
  pinOp,
  unpinOp,
  batchUpdateOp,
  bulkDeleteOp,
  batchDeleteOp,
  extractOp,
  consolidateOp,
  getMemoryOp,
  updateMemoryOp,
  deleteMemoryOp,
  createRelationOp,
  listRelationsOp,
  deleteRelationOp,
  graphOp,
  historyOp,
];

/** Item schemas that bodies reference but validate one item at a time (see their files). */
export const ITEM_SCHEMAS = { BatchUpdateItem, MigrateFile };
