/**
 * English sentence pools for Court of Appeal (Criminal Division) judgments. Slots in {braces}; [he/she] follows the
 * appellant's gender, <he/she> the victim's. Paragraphs sample several sentences so texts differ between judgments.
 */

export const UK_POOLS: Record<string, readonly string[]> = {
  evidence: [
    "The judge gave the jury a careful and balanced direction on the approach to identification evidence, in accordance with R v Turnbull [1977] QB 224.",
    "The CCTV footage recovered from {place_short} was of reasonable quality and showed the sequence of events with some clarity.",
    "The evidence of {witness}, who had no connection with either party, was plainly capable of supporting the prosecution case.",
    "Cell site analysis placed the appellant's telephone in the vicinity of {street} at the material time, and [his/her] account in interview did not address that evidence.",
    "The forensic scientist found blood matching the complainant's DNA profile on the appellant's clothing; the defence did not challenge that finding.",
    "The judge was entitled to admit the evidence of the appellant's previous convictions as evidence of propensity under section 101(1)(d) of the Criminal Justice Act 2003.",
    "It is not suggested that the summing-up was unbalanced, and the judge reminded the jury of the points made on the appellant's behalf.",
    "The jury heard the complainant's ABE interview and watched [his/her] cross-examination, and they were best placed to assess the reliability of that evidence.",
    "There was, in our view, ample evidence on which a properly directed jury could convict; the submission of no case to answer was rightly rejected.",
    "The hearsay application was properly considered by reference to the factors in section 114(2) of the Criminal Justice Act 2003.",
    "The appellant's failure to mention in interview facts later relied upon at trial justified a direction under section 34 of the Criminal Justice and Public Order Act 1994.",
    "The bad character of the witness {witness} was before the jury, and the judge gave an appropriate direction about it.",
    "Fingerprints lifted from {vehicle} matched those of the appellant, who offered no innocent explanation for their presence.",
  ],
  grounds: [
    "It is submitted on behalf of the appellant that the judge erred in refusing to discharge the jury after the prejudicial remark of a prosecution witness.",
    "Mr {defence} argues that the sentence was manifestly excessive, because the judge placed the offence in too high a category under the {guideline}.",
    "It is said that insufficient credit was given for the appellant's guilty plea, contrary to the Reduction in Sentence for a Guilty Plea guideline.",
    "The second ground contends that the judge failed to give adequate weight to the appellant's mental health, contrary to the Sentencing offenders with mental disorders, developmental disorders, or neurological impairments guideline.",
    "It is contended that the judge's directions on joint enterprise did not reflect the law as stated in R v Jogee [2016] UKSC 8.",
    "The Solicitor General submits that the sentence was unduly lenient because the judge failed to reflect the seriousness of the offence and the aggravating features.",
    "It is argued that the judge was wrong to find the appellant dangerous within the meaning of section 308 of the Sentencing Act 2020.",
    "It is said that the totality principle was not observed and that the consecutive terms produced an overall sentence out of proportion to the offending.",
    "The appellant contends that the conviction is unsafe because fresh evidence, which the court is invited to receive under section 23 of the Criminal Appeal Act 1968, undermines the identification.",
    "It is submitted that the judge should have adjourned sentence to obtain a psychiatric report before passing a custodial sentence.",
  ],
  sentence: [
    "The judge placed the offence in category {category} of the {guideline}, with a starting point of {start} and a range of {range}.",
    "The aggravating features included the use of {weapon}, the fact that the offence was committed while the appellant was on licence, and [his/her] previous convictions.",
    "In mitigation the judge took account of the appellant's age, [his/her] difficult upbringing and the remorse expressed in [his/her] letter to the court.",
    "A sentencing judge is not required to follow a guideline slavishly, but must explain any departure from it (see section 59 of the Sentencing Code).",
    "The pre-sentence report assessed the appellant as presenting a {risk} risk of serious harm to the public.",
    "We remind ourselves that this court will interfere only if a sentence is wrong in principle or manifestly excessive.",
    "The victim personal statement describes the lasting effect of the offence on <him/her> and <his/her> family, including difficulty sleeping and leaving the house.",
    "Full credit of one third was given for the early guilty plea, which the judge correctly applied to the notional sentence after trial.",
    "The judge was entitled to conclude that the custody threshold was passed and that only an immediate custodial sentence could be justified.",
    "In our judgment the notional sentence after trial of {notional} was at the top of the appropriate range but not outside it.",
    "The offending crossed the threshold for an extended sentence, and the judge's assessment of dangerousness was properly reasoned.",
    "Consecutive sentences were appropriate because the offences were committed against different victims on separate occasions.",
    "Time spent on qualifying curfew will count towards the sentence automatically under section 325 of the Sentencing Act 2020.",
  ],
  law: [
    "The test for this court is whether the conviction is unsafe: section 2(1) of the Criminal Appeal Act 1968.",
    "As this court explained in R v Pola [2009] EWCA Crim 655, the question is whether the error could have affected the verdict.",
    "The proper approach to unduly lenient sentences is set out in Attorney General's Reference No 4 of 1989 (1990) 90 Cr App R 366.",
    "It is well established that the level of culpability is to be assessed by reference to all the circumstances of the offence.",
    "We have considered the approach in R v Chin-Charles [2019] EWCA Crim 1140 to the assessment of a sentencing judge's reasons.",
    "The principles governing the reception of fresh evidence were restated in R v Erskine [2009] EWCA Crim 1425.",
    "Where a defendant's mental disorder reduces culpability, that must be reflected in the sentence, as the guideline makes clear.",
    "The threshold for leave to appeal out of time is a high one; the applicant must show that substantial injustice would otherwise be done.",
    "There is no rule that a jury's questions must be answered in a particular form, provided the answer is accurate and fair.",
  ],
  conclusion: [
    "For these reasons the appeal is dismissed.",
    "Accordingly, we grant leave, allow the appeal and quash the sentence, substituting the term we have indicated.",
    "We are satisfied that the conviction is safe, and the appeal against conviction is dismissed.",
    "We therefore grant the Solicitor General leave to refer the sentence, which we find to be unduly lenient.",
    "To that extent the appeal succeeds; in all other respects the orders of the Crown Court remain in place.",
    "We are grateful to counsel on both sides for their clear and helpful submissions.",
  ],
};

/** What witnesses saw or said (past tense, third person). */
export const UK_WITNESS: readonly string[] = [
  "heard shouting from {place_short} at about {time} and saw two men struggling beside {vehicle}",
  "said that the appellant had threatened the complainant the week before, saying that [he/she] would \"deal with\" <him/her>",
  "described the appellant as having drunk heavily throughout the evening and as becoming aggressive towards the bar staff",
  "picked out the appellant at a VIPER identification procedure, recognising [him/her] by a distinctive tattoo on [his/her] forearm",
  "saw a dark-coloured car, believed to be {vehicle}, driving away at speed along {street}",
  "described the assailant as wearing a grey hooded top and white trainers; clothing of that description was later recovered from the appellant's home",
  "said that the appellant had handed over a carrier bag with an instruction not to look inside it",
  "found {weapon} on the kitchen floor and saw blood on the walls of the hallway",
  "was working behind the counter when the robbery took place and pressed the panic alarm as the robber ran towards {street}",
  "said that for several months there had been arguments at the address, during which the appellant shouted abuse and damaged the furniture",
  "admitted buying {drug} from the appellant on a number of occasions at £{price} a deal",
  "was the arresting officer and found {weapon} in the footwell of the appellant's car when it was stopped",
];
