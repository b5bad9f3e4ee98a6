import { Module } from '@nestjs/common';
import { PagesService } from './pages.service';

/** Read-only HTML pages behind the URLs in API responses (/Guide/…, /User/…, /Item/…, /c/…). */
@Module({ providers: [PagesService], exports: [PagesService] })
export class PagesModule {}
