/**
 * bge-small-en-v1.5 in Node: the ONNX export run by onnxruntime-node (CPU), tokenized by
 * @huggingface/tokenizers (the tokenizer of transformers.js, without its image and web
 * runtime dependencies). The recipe is production's (Workers AI with `pooling: "cls"`):
 * BERT WordPiece with lower-casing, [CLS] … [SEP], at most 512 tokens, the [CLS] token's
 * last hidden state, L2-normalised, 384 dimensions.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Tokenizer } from "@huggingface/tokenizers";
import ort from "onnxruntime-node";
import { BGE_TOKENIZER_CONFIG, MAX_TOKENS, MODEL_DIMENSIONS } from "./model-files";

/** Texts padded to one length run together; longer texts go in smaller groups. */
const MAX_BATCH_TEXTS = 32;
const MAX_BATCH_TOKENS = 8192;

export class BgeModel {
  private constructor(
    private readonly tokenizer: Tokenizer,
    private readonly session: ort.InferenceSession,
    private readonly sepId: number,
  ) {}

  /** Loads the files of a model folder (onnx/model.onnx, tokenizer.json). */
  static async load(dir: string): Promise<BgeModel> {
    const tokenizer = new Tokenizer(
      JSON.parse(readFileSync(join(dir, "tokenizer.json"), "utf8")),
      BGE_TOKENIZER_CONFIG,
    );
    const sepId = tokenizer.token_to_id("[SEP]");
    if (sepId === undefined) throw new Error("tokenizer.json has no [SEP] token");
    const session = await ort.InferenceSession.create(join(dir, "onnx", "model.onnx"), {
      graphOptimizationLevel: "all",
    });
    return new BgeModel(tokenizer, session, sepId);
  }

  /** Token ids with [CLS] and [SEP]; longer texts keep their first 510 tokens. */
  tokenize(text: string): number[] {
    const ids = this.tokenizer.encode(text).ids;
    if (ids.length <= MAX_TOKENS) return ids;
    return [...ids.slice(0, MAX_TOKENS - 1), this.sepId];
  }

  /** One unit vector per text, in order. */
  async embed(texts: string[]): Promise<Float32Array[]> {
    const encoded = texts.map((text, i) => ({ i, ids: this.tokenize(text) }));
    // Sorted by length so each group pads little.
    encoded.sort((a, b) => a.ids.length - b.ids.length);
    const out = new Array<Float32Array>(texts.length);
    let start = 0;
    while (start < encoded.length) {
      let end = start + 1;
      while (
        end < encoded.length &&
        end - start < MAX_BATCH_TEXTS &&
        (end - start + 1) * (encoded[end]?.ids.length ?? 0) <= MAX_BATCH_TOKENS
      ) {
        end++;
      }
      const group = encoded.slice(start, end);
      const vectors = await this.run(group.map((g) => g.ids));
      group.forEach((g, j) => {
        const v = vectors[j];
        if (v) out[g.i] = v;
      });
      start = end;
    }
    return out;
  }

  private async run(batch: number[][]): Promise<Float32Array[]> {
    const n = batch.length;
    const len = Math.max(...batch.map((ids) => ids.length));
    const inputIds = new BigInt64Array(n * len);
    const mask = new BigInt64Array(n * len);
    batch.forEach((ids, i) => {
      ids.forEach((id, j) => {
        inputIds[i * len + j] = BigInt(id);
        mask[i * len + j] = 1n;
      });
    });
    const dims = [n, len];
    const result = await this.session.run({
      input_ids: new ort.Tensor("int64", inputIds, dims),
      attention_mask: new ort.Tensor("int64", mask, dims),
      token_type_ids: new ort.Tensor("int64", new BigInt64Array(n * len), dims),
    });
    const hidden = result.last_hidden_state;
    if (!hidden || !(hidden.data instanceof Float32Array) || hidden.dims[2] !== MODEL_DIMENSIONS) {
      throw new Error("model output is not last_hidden_state [batch, seq, 384] float32");
    }
    const data = hidden.data;
    // CLS pooling: the first token's state of each sequence, then L2 normalisation.
    return batch.map((_, i) => {
      const cls = data.slice(
        i * len * MODEL_DIMENSIONS,
        i * len * MODEL_DIMENSIONS + MODEL_DIMENSIONS,
      );
      let sum = 0;
      for (const x of cls) sum += x * x;
      const norm = Math.sqrt(sum) || 1;
      for (let d = 0; d < cls.length; d++) cls[d] = (cls[d] ?? 0) / norm;
      return cls;
    });
  }

  async close(): Promise<void> {
    await this.session.release();
  }
}
