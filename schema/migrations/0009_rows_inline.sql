-- A memory's row stays whole in its heap page up to ~4 KB, instead of Postgres's default
-- ~2 KB. A row of a 384-dimension vector (1,544 bytes) and a sentence of text is about
-- 2,170 bytes, just over the default, so Postgres moved its largest compressible column out
-- of line: the full-text vector `search`, read back from the TOAST table (an index probe and
-- a page) every time recall tested a query lexeme against a row, once per lexeme. Scoring
-- the 1,000 memories of a small wallet took 19 ms for those tests alone, 4 ms with the rows
-- whole. Rows written before this migration keep their layout until they are next updated.
ALTER TABLE "memories" SET (toast_tuple_target = 4080);
