/**
 * The knowledge-update set (the `updates` part, index.ts): written by hand for issue #45
 * ("Current facts win") before it was built, and not to be tuned to afterwards: it is a
 * measurement set.
 *
 * - UPDATES: a fact the user said first (`old`), then the fact that replaced it (`new`),
 *   worded afresh: the new text shares no content word with the old one (words.ts; checked by
 *   test/bench/updates-data.test.ts), so neither the lexical embedder nor BM25 can tie them by
 *   their words. The question asks about now; its answer is `new`. Questions are asked the
 *   way a person would ask them, whichever text that favours.
 * - CONTROLS: two similar facts that are both true (about other people, other things, other
 *   times); the question's answer is one of them (`answer`). Nothing here replaces anything.
 * - DISTRACTORS: unrelated memories, stored between the two facts of every item.
 */

export const UPDATE_KINDS = [
  "home",
  "employer",
  "role",
  "manager",
  "diet",
  "deadline",
  "phone",
  "email",
  "school",
  "plan",
  "doctor",
  "car",
  "relationship",
  "favourite",
  "team",
  "project",
  "hobby",
  "gym",
  "bank",
  "commute",
] as const;
export type UpdateKind = (typeof UPDATE_KINDS)[number];

export interface UpdateItem {
  id: string;
  kind: UpdateKind;
  /** Stored first: what was true. */
  old: string;
  /** Stored after the distractors: what is true now. */
  new: string;
  /** About now: its answer is `new`. */
  question: string;
}

export const CONTROL_SHAPES = ["other-person", "other-thing", "other-time"] as const;
export type ControlShape = (typeof CONTROL_SHAPES)[number];

export interface ControlItem {
  id: string;
  shape: ControlShape;
  /** Stored first. */
  first: string;
  /** Stored after the distractors; it does not replace `first`: both are true. */
  second: string;
  question: string;
  /** Which of the two the question asks for. */
  answer: "first" | "second";
}

type Triple = readonly [old: string, now: string, question: string];

const BY_KIND: Record<UpdateKind, readonly Triple[]> = {
  home: [
    [
      "I live in Boston with my two cats.",
      "We finally moved to Denver last month.",
      "Where does the user live?",
    ],
    [
      "My apartment is a tiny studio above a bakery in Lisbon.",
      "Since the lease ran out, home has been a rented house outside Porto.",
      "Which city is the user's home in now?",
    ],
    [
      "Our place is on Elm Street, right across from the fire station.",
      "The movers dropped the final boxes at 14 Harbor Road on Saturday.",
      "What is the user's current address?",
    ],
    [
      "I've been renting a flat in Manchester for years.",
      "Just signed the mortgage papers: we own a cottage in York!",
      "Where does the user live at the moment?",
    ],
    [
      "Living with my parents in Austin to save money.",
      "Got the keys to my own one-bedroom in Houston yesterday.",
      "Where is the user living these days?",
    ],
    [
      "I share a dorm room on the university campus.",
      "These days I rent an attic above a bike shop downtown.",
      "Where does the user currently stay?",
    ],
  ],
  employer: [
    [
      "I work at Google on the Maps backend.",
      "Accepted the offer from Stripe; first day was Monday.",
      "Which company does the user work for?",
    ],
    [
      "I'm a nurse at St. Mary's Hospital.",
      "These days my shifts are at the Riverside clinic instead.",
      "Where is the user employed?",
    ],
    [
      "Been at Deloitte for six years.",
      "I handed in my notice and joined a small startup called Brightloop.",
      "Who is the user's employer?",
    ],
    [
      "My job is at the public library downtown.",
      "The city museum hired me as an archivist this spring.",
      "Where does the user work now?",
    ],
    [
      "I teach maths at Lincoln High.",
      "Westfield Academy offered more money, so I switched over in January.",
      "At which school does the user teach?",
    ],
    [
      "I'm employed by Siemens in their Munich office.",
      "Bosch poached me, started there two weeks ago.",
      "What company is the user with today?",
    ],
  ],
  role: [
    [
      "I'm a junior designer on the marketing team.",
      "They promoted me to art director!",
      "What is the user's job title?",
    ],
    [
      "My title is sales associate.",
      "I moved into account management this quarter.",
      "What role does the user have now?",
    ],
    [
      "I'm working as a barista while I study.",
      "Quit the coffee shop; tutoring kids in chemistry full time pays better.",
      "What does the user do for a living?",
    ],
    [
      "I'm a backend developer.",
      "Switched tracks, I'm a product manager now.",
      "What is the user's position at work?",
    ],
    [
      "Currently a teaching assistant in the physics department.",
      "Got my first lecturer contract, starting this term.",
      "What is the user's current job?",
    ],
    [
      "I drive deliveries for a grocery chain.",
      "Nowadays I dispatch the trucks from the office rather than being on the road.",
      "What work does the user do?",
    ],
  ],
  manager: [
    [
      "My boss is Karen Liu.",
      "Reporting to Tom Alvarez since the reorg.",
      "Who is the user's manager?",
    ],
    [
      "Priya leads my team and she's great.",
      "Marcus is the one I report to these days; he replaced my old supervisor.",
      "Who does the user report to?",
    ],
    [
      "I answer to the head of finance, Gerald.",
      "My new supervisor is Aisha from operations.",
      "Who is the user's boss now?",
    ],
    [
      "Sandra manages me and approves my time off.",
      "Since March, Diego signs off on my vacation requests.",
      "Who is the user's line manager?",
    ],
    [
      "My manager, Ben, is pretty hands-off.",
      "Olivia runs our group now and checks in daily.",
      "Who manages the user at work?",
    ],
    [
      "I work under Dr. Hoffman in the lab.",
      "Professor Nakamura took over as PI and I'm in her group now.",
      "Who supervises the user's research?",
    ],
  ],
  diet: [
    ["I'm vegetarian.", "Started eating fish again a few weeks ago.", "What is the user's diet?"],
    [
      "I eat pretty much everything, meat included.",
      "Went fully vegan in the new year.",
      "What does the user eat these days?",
    ],
    [
      "I'm on a strict keto plan, almost no carbs.",
      "Gave that up; my dietitian has me on a Mediterranean diet.",
      "What diet is the user on?",
    ],
    [
      "I'm doing intermittent fasting, nothing before noon.",
      "Breakfast is back, I stopped skipping meals.",
      "Does the user still fast in the mornings?",
    ],
    [
      "I drink three coffees a day.",
      "I've cut caffeine out completely and switched to herbal tea.",
      "How much coffee does the user drink?",
    ],
    [
      "I'm trying the paleo diet this month.",
      "Counting calories with an app, rather than following any particular plan.",
      "What is the user's approach to eating right now?",
    ],
  ],
  deadline: [
    [
      "The report is due on March 3rd.",
      "My boss pushed it back to the 17th.",
      "When is the user's report due?",
    ],
    [
      "Our launch date is June 1.",
      "We slipped; release is now targeted for mid-July.",
      "When is the user's product launching?",
    ],
    [
      "Thesis submission deadline: end of April.",
      "The committee gave me an extension until September.",
      "When does the user have to submit the thesis?",
    ],
    [
      "Tax forms have to be filed by Friday.",
      "My accountant got an extension, so those papers can wait until October.",
      "When is the user's tax filing due?",
    ],
    [
      "The grant application closes on the 10th.",
      "The foundation extended the call; proposals are accepted through the 24th.",
      "What is the deadline for the user's grant application?",
    ],
    [
      "Client wants the mockups Tuesday.",
      "Those designs aren't needed till next Thursday anymore.",
      "When are the user's mockups due?",
    ],
  ],
  phone: [
    [
      "My cell is 617-201-4432.",
      "Got a new SIM; reach me on 720-889-1306.",
      "What is the user's phone number?",
    ],
    [
      "Call me at 0161 496 0012.",
      "I changed providers and the number is now 07700 900 461.",
      "How can someone reach the user by phone?",
    ],
    [
      "My mobile number is +44 7911 123456.",
      "Switched carriers and had to get a fresh line: +33 6 12 34 56 78.",
      "What's the user's current mobile number?",
    ],
    [
      "The landline at home is 555-0199.",
      "We dropped the house phone; text my cell, 312-404-7781.",
      "Which number should be used to call the user?",
    ],
    [
      "Work phone: extension 2231.",
      "My desk line changed to ext. 4780 after the office move.",
      "What is the user's work extension?",
    ],
    [
      "You can text me on 415 230 9981.",
      "Lost my old phone, so my digits are 628 771 0034 now.",
      "What is the user's phone number now?",
    ],
  ],
  email: [
    [
      "My email is dana.k@fastmail.com.",
      "I moved everything over to dkowalski@proton.me.",
      "What is the user's email address?",
    ],
    [
      "Send stuff to jmorris@acmecorp.co.uk.",
      "That corporate account is gone since I left; use jamie.morris88@gmail.com.",
      "Where should emails to the user go?",
    ],
    [
      "Reach me at theo@oldmail.net.",
      "My inbox moved to t.ramirez@hey.com.",
      "What is the user's email?",
    ],
    [
      "I use my university address, s1234567@ed.ac.uk.",
      "I graduated, so please write to sofia.bell@outlook.com instead.",
      "What email address should be used for the user?",
    ],
    [
      "Contact me at hello@lenastudio.de for commissions.",
      "My portfolio site changed, and so did the inbox: lena@paperfox.design.",
      "Which address does the user take commission requests at?",
    ],
    [
      "My work email is r.patel@northwind.io.",
      "Since the merger, messages reach me at rpatel@contoso.com.",
      "What is the user's work email address?",
    ],
  ],
  school: [
    [
      "I'm studying at Ohio State.",
      "I transferred to the University of Michigan this fall.",
      "Which university does the user attend?",
    ],
    [
      "My daughter goes to Maple Elementary.",
      "We enrolled Emma at Oakridge Montessori after the move.",
      "What school does the user's daughter go to?",
    ],
    [
      "I'm doing my master's at King's College London.",
      "I switched programs and I'm finishing the degree at Edinburgh.",
      "Where is the user doing their master's?",
    ],
    [
      "Taking night classes at the community college.",
      "I got into the state university's evening program and left the old courses behind.",
      "Where does the user take classes?",
    ],
    [
      "Our son attends Riverside Middle School.",
      "Jake started at Hillcrest Academy this term.",
      "Which school is the user's son at?",
    ],
    [
      "I'm enrolled in a coding bootcamp with Le Wagon.",
      "Dropped out of that; an online course from Coursera is how I'm learning now.",
      "How is the user learning to code?",
    ],
  ],
  plan: [
    [
      "We're going to Italy for our summer vacation.",
      "Change of plans, we booked two weeks in Japan instead.",
      "Where is the user travelling on holiday this year?",
    ],
    [
      "Thanksgiving will be at my in-laws' place this year.",
      "We're hosting the whole family ourselves in November.",
      "Where is the user spending Thanksgiving?",
    ],
    [
      "The plan for Saturday is hiking Mount Tam.",
      "Rain's forecast, so we'll see a movie on the weekend.",
      "What is the user doing this Saturday?",
    ],
    [
      "I'm planning to apply to medical school next year.",
      "I've decided on nursing instead of becoming a doctor.",
      "What career path is the user pursuing?",
    ],
    [
      "Our wedding is going to be in a barn in Vermont.",
      "We chose a beach ceremony in Maui.",
      "Where is the user's wedding taking place?",
    ],
    [
      "I intend to retire at 60.",
      "The pension numbers convinced me to keep working until 67.",
      "At what age does the user plan to retire?",
    ],
  ],
  doctor: [
    [
      "My GP is Dr. Patel at Westside Medical.",
      "Since relocating, I see Doctor Okafor at the Hillside practice.",
      "Who is the user's family doctor?",
    ],
    [
      "My dentist is in Brooklyn, a Dr. Levine.",
      "Switched to a dental office near work run by Maria Santos.",
      "Who is the user's dentist?",
    ],
    [
      "I see a therapist named Julia every Tuesday.",
      "Started with a new counselor, Mark, on Thursdays.",
      "Who is the user's therapist now?",
    ],
    [
      "Dr. Chen handles my allergies.",
      "Professor Rossi at the university hospital treats my hay fever and asthma now.",
      "Who treats the user's allergies?",
    ],
    [
      "My pediatrician for the kids is Dr. Gomez.",
      "The children now see Nurse Practitioner Hale at Sunnybrook.",
      "Who looks after the health of the user's children?",
    ],
    [
      "My physio is Anna at the sports clinic.",
      "I'm doing rehab with Kevin at a place on Fifth Avenue.",
      "Who is the user's physical therapist?",
    ],
  ],
  car: [
    [
      "I drive a 2012 Honda Civic.",
      "Traded it in for a Tesla Model 3.",
      "What car does the user drive?",
    ],
    [
      "My car is a red Ford Focus.",
      "We replaced that with a Subaru Outback, blue.",
      "What car does the user have?",
    ],
    [
      "I don't have a car, I bike everywhere.",
      "Bought a used Toyota Corolla so I can visit my mom.",
      "Does the user own a car?",
    ],
    [
      "Our family vehicle is a minivan, a Honda Odyssey.",
      "The kids are grown, so we downsized to a Mini Cooper.",
      "What does the user's family drive?",
    ],
    [
      "I lease a BMW 3 Series.",
      "Returned that at the end of the contract and got an electric Kia.",
      "What car is the user driving now?",
    ],
    [
      "My motorbike is a Vespa.",
      "Sold the scooter and bought a Triumph Bonneville.",
      "What motorcycle does the user ride?",
    ],
  ],
  relationship: [
    [
      "I'm single and not really dating.",
      "I've been seeing someone named Alex for a couple of months.",
      "Is the user in a relationship?",
    ],
    [
      "My boyfriend Sam and I have been together three years.",
      "We broke up in the spring; I'm on my own now.",
      "What is the user's relationship status?",
    ],
    ["I'm engaged to Priya.", "We got married last weekend!", "Is the user married?"],
    [
      "My husband's name is David.",
      "The divorce was finalized in May.",
      "Is the user still married?",
    ],
    [
      "Going through a rough patch with my girlfriend.",
      "Lena and I split up for good, but we're still friends.",
      "Does the user have a girlfriend?",
    ],
    [
      "My partner Jordan lives with me.",
      "We ended things and my ex moved out in August.",
      "Does the user have a partner at the moment?",
    ],
  ],
  favourite: [
    [
      "My favourite band is Radiohead.",
      "Lately I can't stop listening to Phoebe Bridgers, she's my top artist.",
      "Who is the user's favourite musician?",
    ],
    [
      "Pizza is my all-time favourite food.",
      "Honestly, ramen beats everything else for me these days.",
      "What is the user's favourite food?",
    ],
    [
      "The best book I've ever read is Dune.",
      "Piranesi has replaced everything on top of my list.",
      "What is the user's favourite novel?",
    ],
    [
      "Blue has always been my favourite colour.",
      "I'm obsessed with green lately, everything I buy is green.",
      "What colour does the user like best?",
    ],
    [
      "My go-to movie is The Godfather.",
      "Nothing beats Spirited Away for me now.",
      "What is the user's favourite film?",
    ],
    [
      "I love summer more than any other season.",
      "Autumn wins, hands down: crisp air and falling leaves.",
      "What is the user's favourite time of year?",
    ],
  ],
  team: [
    [
      "I'm on the payments team.",
      "I joined the search infrastructure group in October.",
      "Which team is the user on at work?",
    ],
    [
      "I root for the Red Sox.",
      "Living in Chicago turned me into a Cubs fan.",
      "Which baseball team does the user support?",
    ],
    [
      "My kid plays for the Tigers in the under-10 league.",
      "Our son switched clubs and is with the Lions this season.",
      "Which team does the user's son play for?",
    ],
    [
      "I play goalkeeper for a Sunday league side called Rovers.",
      "These days I'm in net for Athletic on Wednesday nights.",
      "Which football team does the user play for?",
    ],
    [
      "I'm in the mobile squad, building the iOS app.",
      "Moved over to data platform, working on pipelines.",
      "What team does the user belong to?",
    ],
    [
      "Our quiz team is called The Know-It-Alls.",
      "We renamed ourselves Quizteama Aguilera.",
      "What is the name of the user's quiz team?",
    ],
  ],
  project: [
    [
      "I'm working on the checkout redesign.",
      "Leadership moved me onto the fraud detection initiative.",
      "What project is the user working on?",
    ],
    [
      "My current side project is a recipe app.",
      "I've shelved that and I'm building a budgeting tool in Rust.",
      "What is the user's side project?",
    ],
    [
      "Our team's big project this quarter is migrating to AWS.",
      "Cloud move got cancelled; we're rebuilding the billing system.",
      "What is the user's team focused on?",
    ],
    [
      "I'm writing a novel about a lighthouse keeper.",
      "Put the fiction aside; drafting a memoir about my grandmother.",
      "What is the user writing?",
    ],
    [
      "The garden shed is my weekend project.",
      "Now I spend Saturdays restoring an old canoe.",
      "What is the user's current DIY project?",
    ],
    [
      "My research is on coral reef bleaching.",
      "I switched my thesis to microplastics in rivers.",
      "What does the user research?",
    ],
  ],
  hobby: [
    [
      "I spend my free time playing chess.",
      "Rock climbing has taken over every evening I have.",
      "What is the user's hobby?",
    ],
    [
      "I've been knitting a lot.",
      "Pottery classes are my new obsession.",
      "What does the user do for fun?",
    ],
    [
      "Weekends are for birdwatching.",
      "I picked up the guitar and practice whenever I can.",
      "What is the user's main pastime these days?",
    ],
    [
      "I do a lot of baking, mostly sourdough.",
      "I'm into woodworking now, made a bookshelf.",
      "What hobby is the user into?",
    ],
    [
      "Running marathons is my thing.",
      "My knees gave out, so I swim laps now.",
      "What sport does the user do?",
    ],
    [
      "I collect vinyl records.",
      "These days I'm all about film photography with an old Leica.",
      "What is the user's hobby now?",
    ],
  ],
  gym: [
    [
      "I'm a member at Planet Fitness on Main Street.",
      "Cancelled that and joined a CrossFit box near the office.",
      "Which gym does the user go to?",
    ],
    [
      "I work out at the YMCA.",
      "Switched to Equinox because it has a pool.",
      "Where does the user exercise?",
    ],
    [
      "My gym is the one in our apartment building.",
      "I pay for a climbing wall membership downtown now.",
      "Where does the user train?",
    ],
    [
      "Going to Gold's Gym three times a week.",
      "Found a cheaper spot, PureGym, five minutes from home.",
      "What gym is the user a member of?",
    ],
    [
      "I train at a boxing club in Hackney.",
      "My workouts happen at the leisure centre by the station these days.",
      "Where does the user work out?",
    ],
    [
      "I've got a yoga studio membership at Bend.",
      "I practise at home with YouTube videos since letting that pass lapse.",
      "Where does the user do yoga?",
    ],
  ],
  bank: [
    [
      "I bank with Chase.",
      "Moved my accounts to a credit union last week.",
      "Which bank does the user use?",
    ],
    [
      "My salary goes into my Barclays account.",
      "Wages land in Monzo now.",
      "Where does the user's pay get deposited?",
    ],
    [
      "Wells Fargo has had my checking since college.",
      "Closed out there and switched to Ally for online banking.",
      "Which bank does the user have a checking account with?",
    ],
    [
      "I keep my savings at HSBC.",
      "Rates were better at Marcus, so the nest egg is there now.",
      "Where does the user keep their savings?",
    ],
    [
      "We have a joint account at TD.",
      "We consolidated our money with Capital One.",
      "Where do the user and their partner bank?",
    ],
    [
      "I use Revolut for everything.",
      "Switched all my finances over to N26.",
      "What bank does the user use now?",
    ],
  ],
  commute: [
    [
      "I take the subway to work.",
      "I cycle to the office now that the bike lane is done.",
      "How does the user commute?",
    ],
    [
      "My commute is a 40-minute drive.",
      "We went remote, so I walk from the kitchen to my desk.",
      "How does the user get to work?",
    ],
    [
      "I catch the 7:15 train from Croydon.",
      "The bus from my new street is quicker, so I ride that.",
      "How does the user travel to work?",
    ],
    [
      "Carpooling with Jess every morning.",
      "My colleague changed jobs, so I drive in alone.",
      "How does the user get to the office?",
    ],
    [
      "I ferry across the bay daily.",
      "With the bridge open, I just take the express coach.",
      "How does the user commute now?",
    ],
    [
      "I walk twenty minutes to campus.",
      "Got an e-scooter for the trip to the university.",
      "How does the user get to campus?",
    ],
  ],
};

export const UPDATES: UpdateItem[] = UPDATE_KINDS.flatMap((kind) =>
  BY_KIND[kind].map(([old, now, question], i) => ({
    id: `${kind}-${i + 1}`,
    kind,
    old,
    new: now,
    question,
  })),
);

type Pair = readonly [first: string, second: string, question: string, answer: "first" | "second"];

const CONTROLS_BY_SHAPE: Record<ControlShape, readonly Pair[]> = {
  "other-person": [
    [
      "My sister lives in Boston.",
      "My brother just bought a house in Denver.",
      "Where does the user's brother live?",
      "second",
    ],
    [
      "My mom works as a nurse at the children's hospital.",
      "Dad is an electrician with the city.",
      "What does the user's mother do for work?",
      "first",
    ],
    [
      "My best friend Tara is vegan.",
      "My roommate eats steak every night.",
      "What does the user's roommate eat?",
      "second",
    ],
    [
      "My wife drives a Volvo.",
      "My son drives an old pickup truck.",
      "What car does the user's wife drive?",
      "first",
    ],
    [
      "My boss's birthday is in June.",
      "My cousin celebrates her birthday in December.",
      "When is the user's cousin's birthday?",
      "second",
    ],
    [
      "My daughter studies at Yale.",
      "My nephew is at Stanford.",
      "Where does the user's nephew study?",
      "second",
    ],
    [
      "The neighbours have a golden retriever.",
      "Our dog is a beagle named Pepper.",
      "What breed is the user's own dog?",
      "second",
    ],
    [
      "My dad's doctor is Dr. Hughes.",
      "My own GP is Dr. Fraser.",
      "Who is the user's father's doctor?",
      "first",
    ],
    [
      "My husband supports Arsenal.",
      "I've always been a Spurs fan.",
      "Which football club does the user's husband support?",
      "first",
    ],
    [
      "My colleague Raj is on the platform team.",
      "I'm on the growth team.",
      "Which team is Raj on?",
      "first",
    ],
    [
      "Grandma lives in a care home in Leeds.",
      "My grandfather still lives on his farm in Cornwall.",
      "Where does the user's grandfather live?",
      "second",
    ],
    [
      "My friend Mia's number is 212-330-4481.",
      "Mom's cell is 646-210-9973.",
      "What is the user's mother's phone number?",
      "second",
    ],
    [
      "My twin brother is a chef in Paris.",
      "My older brother flies planes for Delta.",
      "What does the user's twin do?",
      "first",
    ],
    [
      "Our manager Linda prefers email.",
      "Our director, Paul, only answers on Slack.",
      "How does the user's director prefer to be contacted?",
      "second",
    ],
    [
      "My partner's favourite food is sushi.",
      "Tacos are what I'd pick every time.",
      "What is the favourite food of the user's partner?",
      "first",
    ],
  ],
  "other-thing": [
    [
      "My laptop is a MacBook Air.",
      "My work desktop runs Windows 11.",
      "What laptop does the user have?",
      "first",
    ],
    [
      "I bank with Chase for checking.",
      "My credit card is from Amex.",
      "Who issues the user's credit card?",
      "second",
    ],
    [
      "My personal email is kim.lee@gmail.com.",
      "At the office I'm klee@initech.com.",
      "What is the user's personal email?",
      "first",
    ],
    [
      "My car is a Mazda 3.",
      "For cycling I ride a Trek road bike.",
      "What bicycle does the user ride?",
      "second",
    ],
    [
      "The kitchen is painted yellow.",
      "The bedroom walls are grey.",
      "What colour is the user's bedroom?",
      "second",
    ],
    [
      "My morning gym is the YMCA.",
      "On weekends I climb at Brooklyn Boulders.",
      "Where does the user climb on weekends?",
      "second",
    ],
    [
      "My main project at work is the billing API.",
      "At home I'm building a birdhouse.",
      "What is the user's main work project?",
      "first",
    ],
    [
      "I'm learning Spanish on Duolingo.",
      "I also take piano lessons on Thursdays.",
      "What language is the user learning?",
      "first",
    ],
    [
      "Our cat is called Miso.",
      "The goldfish is named Bubbles.",
      "What is the user's cat called?",
      "first",
    ],
    [
      "My favourite book is Middlemarch.",
      "The film I love most is Alien.",
      "What is the user's favourite movie?",
      "second",
    ],
    [
      "The house deposit is due on the 15th.",
      "The car insurance renews on the 28th.",
      "When is the user's house deposit due?",
      "first",
    ],
    [
      "I use Spotify for music.",
      "I listen to podcasts on Pocket Casts.",
      "What app does the user use for podcasts?",
      "second",
    ],
    [
      "My passport expires in 2027.",
      "My driving licence runs out in 2031.",
      "When does the user's passport expire?",
      "first",
    ],
    [
      "My phone is an iPhone 13.",
      "I read on a Samsung Galaxy tablet.",
      "What phone does the user have?",
      "first",
    ],
    [
      "My dentist appointment is Monday at 9.",
      "The car goes in for service on Wednesday.",
      "When is the user's dentist appointment?",
      "first",
    ],
  ],
  "other-time": [
    [
      "In 2019 I worked at Accenture.",
      "I work at Shopify.",
      "Where did the user work in 2019?",
      "first",
    ],
    ["As a kid I lived in Nairobi.", "I live in Toronto.", "Where did the user grow up?", "first"],
    [
      "Last summer we vacationed in Croatia.",
      "This summer we're going to Portugal.",
      "Where did the user go on vacation last summer?",
      "first",
    ],
    [
      "In college I was a vegetarian for two years.",
      "These days I follow a high-protein diet.",
      "What diet did the user follow in college?",
      "first",
    ],
    [
      "My first car was a Nissan Micra.",
      "I drive a Volkswagen Golf.",
      "What was the user's first car?",
      "first",
    ],
    [
      "Before the kids, I ran half marathons.",
      "I do yoga twice a week.",
      "What sport did the user do before having kids?",
      "first",
    ],
    [
      "Back in high school, my best friend was Marco.",
      "My closest friend is Hannah.",
      "Who was the user's best friend in high school?",
      "first",
    ],
    [
      "Last year's team offsite was in Lisbon.",
      "This year's offsite is planned for Berlin.",
      "Where is this year's team offsite?",
      "second",
    ],
    [
      "In 2015 I graduated from UCLA.",
      "I'm doing an MBA at Wharton.",
      "Where did the user do their undergraduate degree?",
      "first",
    ],
    [
      "Until 2020 my number was 503-220-1187.",
      "My number is 971-448-3302.",
      "What was the user's phone number before 2020?",
      "first",
    ],
    [
      "Our 2022 trip was to Iceland.",
      "Our 2024 trip was to Peru.",
      "Where did the user travel in 2024?",
      "second",
    ],
    [
      "Last Christmas we hosted at our place.",
      "This Christmas we're going to my sister's.",
      "Where is the user spending this Christmas?",
      "second",
    ],
    [
      "During the pandemic I baked bread every day.",
      "I mostly paint watercolours in my spare time.",
      "What did the user do during the pandemic?",
      "first",
    ],
    [
      "Yesterday's meeting with the client went badly.",
      "Tomorrow's meeting with the client is at 10.",
      "When is the user's next client meeting?",
      "second",
    ],
    [
      "In my twenties I lived in Berlin.",
      "I've settled in Vienna with my family.",
      "Where did the user live in their twenties?",
      "first",
    ],
  ],
};

export const CONTROLS: ControlItem[] = CONTROL_SHAPES.flatMap((shape) =>
  CONTROLS_BY_SHAPE[shape].map(([first, second, question, answer], i) => ({
    id: `${shape}-${i + 1}`,
    shape,
    first,
    second,
    question,
    answer,
  })),
);

/**
 * Unrelated memories, fifteen of them stored between the two facts of every item (index.ts
 * takes those that share no content word with the item, in a rotating order).
 */
export const DISTRACTORS: readonly string[] = [
  "The tomatoes on the balcony finally turned red.",
  "That detective series lost me in its second season.",
  "Remind me to descale the kettle, it's full of limescale.",
  "Octopuses have three hearts, which still amazes me.",
  "I keep forgetting where I put the spare umbrella.",
  "The thunderstorm last night knocked the power out for an hour.",
  "Saw a heron standing perfectly still by the canal.",
  "My fountain pen leaked all over a notebook.",
  "The jigsaw puzzle of the lighthouse is missing two pieces.",
  "Need to buy batteries for the smoke alarm.",
  "The sunset over the hills was unreal this evening.",
  "I prefer crunchy peanut butter to smooth.",
  "Honey never spoils, apparently archaeologists found edible jars in tombs.",
  "The neighbour's wind chimes kept me awake.",
  "Halfway through a podcast about the history of salt.",
  "Left my sunglasses at the cinema again.",
  "The printer jammed three times before it gave up.",
  "My houseplant, a fiddle-leaf fig, is dropping leaves.",
  "I laughed way too hard at a video of a goat yelling.",
  "The museum's dinosaur exhibit opens next spring.",
  "Bananas are technically berries but strawberries aren't.",
  "Watched a documentary about deep-sea anglerfish.",
  "The crossword today had a clue about Byzantine emperors.",
  "Somebody left a shopping trolley in the river again.",
  "I should finally frame that map of old Paris.",
  "The hallway light bulb flickers whenever the fridge starts.",
  "A hedgehog wandered across the garden path at dusk.",
  "The word of the day was 'petrichor', the smell after rain.",
  "My headphones' left ear cup is crackling.",
  "I tried writing with my left hand and it was hopeless.",
  "The town fair had a pumpkin weighing over 500 kilos.",
  "Venus spins backwards compared with most planets.",
  "I can never remember whether it's 'affect' or 'effect'.",
  "Found an old postcard from Brighton in a secondhand book.",
  "The squirrels dug up all the tulip bulbs.",
  "There's a weird rattling noise in the radiator.",
  "I sneezed seven times in a row this morning.",
  "The library's used-book sale is on the first weekend of the month.",
  "A rainbow appeared right after the hail stopped.",
  "I learned that flamingos are pink because of their food.",
  "The clocks go back an hour soon, thankfully.",
  "I bought a tiny cactus for the windowsill.",
  "The elevator in the tower smelled of burnt toast.",
  "Lightning struck the church steeple across the valley.",
  "I think penguins are the funniest birds ever.",
  "Someone painted a mural of whales under the bridge.",
  "The kettle whistle sounds exactly like a train.",
  "Candle wax dripped onto the tablecloth at dinner.",
  "I read that sloths can hold their breath for forty minutes.",
  "The fog was so thick I couldn't see the end of the street.",
  "A moth has been living in the bathroom for a week.",
  "Mushrooms are closer to animals than to plants.",
  "The violin next door plays the same scale every evening.",
  "My favourite mug got a chip on the handle.",
  "The autumn leaves clogged the gutters.",
  "I watched the space station pass overhead at dawn.",
  "There's a crow that steals bottle caps from the terrace.",
  "The board game night ended in a heated argument about Monopoly rules.",
  "I finally sorted the drawer full of tangled cables.",
  "Sea otters hold hands while they sleep.",
];
