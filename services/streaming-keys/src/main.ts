import { runServiceMain } from '@bo/platform/service';
import streamingKeys from './service';

runServiceMain(streamingKeys);
