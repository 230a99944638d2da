/** Test data that the Worker's tests and the Node-side tests share (no Worker imports here). */

/** The fields a stored memory has when the store request gives none of them (the spec's defaults). */
export const MEMORY_DEFAULTS = {
  namespace: "default",
  metadata: {},
  tags: [],
  importance: 0.5,
  memory_type: "general",
  session_id: null,
  agent_id: null,
  pinned: false,
  immutable: false,
  expires_at: null,
};
