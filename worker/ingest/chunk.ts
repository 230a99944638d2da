/**
 * Cutting long input into pieces a language model can read in one call.
 *
 * CHUNK_CHARS (4,000 characters, about 1,000 tokens) per piece: small enough for any instruct
 * model's context with the prompt and the answer, large enough that a conversation's turns
 * mostly stay together. Text is cut on paragraph boundaries (blank lines), a paragraph over
 * the size on line breaks, a line over it between sentences (sentences.ts), and a sentence
 * over it at a space; the pieces are then packed greedily back up to the size. A
 * conversation is packed whole messages at a time; a message over the size is cut like text
 * into several messages of the same role.
 */
import type { ChatMessage } from "../language-model";
import { cutAtWord, splitSentences } from "../llm/sentences";

export const CHUNK_CHARS = 4000;

export function chunkText(text: string, max = CHUNK_CHARS): string[] {
  const paragraphs = text
    .replace(/\r\n?/g, "\n")
    .split(/\n[ \t]*\n/)
    .map((p) => p.trim())
    .filter((p) => p !== "");
  const pieces = paragraphs.flatMap((p) => (p.length <= max ? [p] : splitParagraph(p, max)));
  return pack(pieces, "\n\n", max);
}

function splitParagraph(paragraph: string, max: number): string[] {
  const lines = paragraph.split("\n").flatMap((line) => {
    if (line.length <= max) return [line];
    const sentences = splitSentences(line).flatMap((s) => hardSplit(s, max));
    return pack(sentences, " ", max);
  });
  return pack(lines, "\n", max);
}

function hardSplit(text: string, max: number): string[] {
  const out: string[] = [];
  let rest = text;
  while (rest.length > max) {
    const head = cutAtWord(rest, max);
    out.push(head);
    rest = rest.slice(head.length).trimStart();
  }
  if (rest) out.push(rest);
  return out;
}

/** Joins consecutive pieces with `sep` while the result stays within `max`. */
function pack(pieces: string[], sep: string, max: number): string[] {
  const out: string[] = [];
  let current = "";
  for (const piece of pieces) {
    if (current === "") current = piece;
    else if (current.length + sep.length + piece.length <= max) current += sep + piece;
    else {
      out.push(current);
      current = piece;
    }
  }
  if (current !== "") out.push(current);
  return out;
}

/** A conversation in groups of whole messages of at most `max` characters of content. */
export function chunkConversation(messages: ChatMessage[], max = CHUNK_CHARS): ChatMessage[][] {
  const groups: ChatMessage[][] = [];
  let current: ChatMessage[] = [];
  let size = 0;
  const flush = () => {
    if (current.length > 0) groups.push(current);
    current = [];
    size = 0;
  };
  for (const message of messages) {
    const parts =
      message.content.length <= max
        ? [message]
        : chunkText(message.content, max).map((content) => ({ role: message.role, content }));
    for (const part of parts) {
      if (size + part.content.length > max) flush();
      current.push(part);
      size += part.content.length;
    }
  }
  flush();
  return groups;
}
