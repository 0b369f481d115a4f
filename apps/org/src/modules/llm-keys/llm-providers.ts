/**
 * LLM providers a project can hold keys for (`provider` of `POST …/llm_api_keys`; docs/org.md
 * docs/api.md § LLM API key). Lower-case identifiers.
 */
export const LLM_PROVIDERS = [
  'openai',
  'anthropic',
  'azure_openai',
  'google_ai_studio',
  'google_vertex_ai',
  'aws_bedrock',
  'mistral',
  'cohere',
  'groq',
  'together',
  'openrouter',
  'deepseek',
  'xai',
] as const;
export type LlmProvider = (typeof LLM_PROVIDERS)[number];

/**
 * The masked form of a provider key
 * (docs/architecture.md § Decisions where the contract is silent): first three characters, an
 * ellipsis, last four — `sk-proj-abcd…wxyz` becomes `sk-…wxyz`. Keys are at least 8 characters, so
 * at most 7 characters of a key of at least 8 ever show.
 */
export function maskSecret(secret: string): string {
  return `${secret.slice(0, 3)}…${secret.slice(-4)}`;
}
