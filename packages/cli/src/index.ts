export { buildProgram, main, VERSION } from './program';
export { runAgent, runBridge, type BridgeEvent, type TurnRequest } from './bridge';
export { ConfigStore, configDir, type Credential } from './config';
