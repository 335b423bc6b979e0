/** Livechat: visitors, livechat rooms, inquiries, departments, agents. */

/** Filled in by the livechat work (contract §8). */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface LivechatRepo {}
