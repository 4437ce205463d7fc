CREATE TRIGGER users_never_deleted BEFORE DELETE ON public.users FOR EACH ROW EXECUTE FUNCTION coffer_never_deleted();
