CREATE TRIGGER journal_entries_referenced BEFORE DELETE ON public.journal_entries FOR EACH ROW EXECUTE FUNCTION coffer_entry_unreferenced();
