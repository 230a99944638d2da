/**
 * What one client of the embedded database's front has created on the one shared session:
 * its prepared statements, under names scoped to it (two clients may both say "s1"), which of
 * them are background work (lock.ts lanes), and its session-level SETs, replayed when it takes
 * the database back. Reads messages only through wire.ts; sends nothing.
 */
import { isBackground } from "../../worker/db/background";
import type { Lane } from "./lock";
import {
  boundName,
  type FrontendMessage,
  parsedName,
  scopeNames,
  setsSessionState,
  sqlText,
} from "./wire";

export class ClientNames {
  /** Scoped names of the prepared statements it created (closed when it leaves). */
  readonly statements = new Set<string>();
  /** Scoped names of its prepared statements that are background work. */
  private readonly background = new Set<string>();
  /** Its session-level SET/RESET statements. */
  readonly sessionSql: string[] = [];

  constructor(readonly prefix: string) {}

  /** Scopes a message's names to this client and notes what it creates. */
  track(message: FrontendMessage): FrontendMessage {
    const scoped = scopeNames(message, this.prefix);
    const text = sqlText(scoped);
    const name = parsedName(scoped);
    if (name) {
      this.statements.add(name);
      if (isBackground(text)) this.background.add(name);
      else this.background.delete(name);
    }
    if (scoped.type === "C" && scoped.bytes[5] === 0x53) {
      const closed = scoped.bytes.toString("utf8", 6, scoped.bytes.length - 1);
      this.statements.delete(closed);
      this.background.delete(closed);
    }
    if (text !== undefined && setsSessionState(text)) this.sessionSql.push(text);
    return scoped;
  }

  /** Background if the unit's statements are marked so (worker/db/background.ts). */
  laneOf(unit: FrontendMessage[]): Lane {
    const marked = unit.some((m) => {
      const name = boundName(m);
      if (name) return this.background.has(name);
      return isBackground(sqlText(m));
    });
    return marked ? "background" : "request";
  }
}
