module github.com/bcserver/bcserver

go 1.26
