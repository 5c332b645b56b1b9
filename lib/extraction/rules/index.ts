export { extractRules, extractPl, extractEn, detectLanguage, plArticles, RULES_FIELDS, RULES_MODEL, type RulesResult, type RulesJudge, type Appellant, type Outcome } from "./extract";
export { parseDate, titleCase } from "./text";
export { extractRulesSentenceNumbers, type RulesSentenceNumbers } from "./sentences";
