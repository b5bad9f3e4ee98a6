import { Global, Module } from '@nestjs/common';
import { WikiTextService } from './wikitext.service';

/** Global so any content module can render wiki text and register reference loaders. */
@Global()
@Module({
  providers: [WikiTextService],
  exports: [WikiTextService],
})
export class WikiTextModule {}
