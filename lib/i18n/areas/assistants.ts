/**
 * Interface strings of the assistants area (chat, precedents, argumentation, summaries; issue 17), English and Polish
 * side by side (the Polish object is typed against the English one, so a missing translation is a type error). Wired
 * into the dictionaries as `t.assistants`.
 */
export const assistantsEn = {
  modeExtractive: "Extractive answer (no language model configured)",
  modeRules: "Rule-based (no language model configured)",
  modeLlm: "Model answer ({model})",
};

export const assistantsPl: typeof assistantsEn = {
  modeExtractive: "Odpowiedź ekstrakcyjna (nie skonfigurowano modelu językowego)",
  modeRules: "Na podstawie reguł (nie skonfigurowano modelu językowego)",
  modeLlm: "Odpowiedź modelu ({model})",
};
