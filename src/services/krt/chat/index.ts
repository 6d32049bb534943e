// Public API of the table-building chat.
export { chat, newChatState, type ChatState, type ChatTurn, type ChatOptions, type PendingQuestion } from './engine.ts';
export { CHAT_INTENTS, classifyIntent, parseEntities, type ChatIntent, type ChatEntities } from './parse.ts';
