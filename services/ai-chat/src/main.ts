import { runServiceMain } from '@bo/platform/service';
import aiChat from './service';

runServiceMain(aiChat);
