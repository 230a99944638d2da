-- drizzle-kit does not emit extensions: the vector type must exist before any table uses it.
CREATE EXTENSION IF NOT EXISTS vector;
