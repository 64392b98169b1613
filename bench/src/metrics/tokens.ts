import { countTokens } from 'gpt-tokenizer/encoding/o200k_base'

/** o200k_base token count (GPT-4o / o-series tokenizer), the unit every token figure uses. */
export function o200k(text: string): number {
  return text === '' ? 0 : countTokens(text)
}
