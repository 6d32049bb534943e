// Public API of the table-building chat.
export { chat, newChatState, type ChatState } from './engine.ts';
