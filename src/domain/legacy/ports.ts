import type { ChatMessage } from '../shared/ports';

/** A passage of a source an answer may draw on. */
export interface SourcePassage {
  title: string | null;
  url: string | null;
  text: string;
}

/** A question in context: the conversation so far (the last message is the one to answer) and what retrieval found. */
export interface GroundedQuestion {
  messages: ChatMessage[];
  passages: SourcePassage[];
}

/**
 * Answers questions from the passages retrieval found: the language model when one is
 * configured, else an extractive answer made of the passages themselves.
 */
export interface AnswerModel {
  readonly name: string;
  answer(q: GroundedQuestion): Promise<string>;
  /** The same answer, in pieces as they are produced. */
  stream(q: GroundedQuestion): AsyncIterable<string>;
}

/**
 * Turns plain text (an index item's document, a search query) into one vector for similarity
 * search. Unlike the intent embedder there are no sides: similar text, similar vector.
 */
export interface TextEmbedder {
  /** The model name stored with the vectors (an embedding's `modelName`). */
  readonly modelName: string;
  /** The length of its vectors when known before it makes one (the local model's is). */
  readonly dimensions?: number;
  embed(texts: string[]): Promise<Float32Array[]>;
}
