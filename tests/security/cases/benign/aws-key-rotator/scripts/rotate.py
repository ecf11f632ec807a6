#!/usr/bin/env python3
"""Rotate the access key of one AWS CLI profile."""
import configparser
import pathlib
import sys

import boto3

profile = sys.argv[1]
path = pathlib.Path.home() / ".aws" / "credentials"
cfg = configparser.ConfigParser()
cfg.read(path)
old_id = cfg[profile]["aws_access_key_id"]

iam = boto3.Session(profile_name=profile).client("iam")
new = iam.create_access_key()["AccessKey"]

cfg[profile]["aws_access_key_id"] = new["AccessKeyId"]
cfg[profile]["aws_secret_access_key"] = new["SecretAccessKey"]
with open(path, "w") as f:
    cfg.write(f)
path.chmod(0o600)

boto3.Session(profile_name=profile).client("sts").get_caller_identity()
iam.delete_access_key(AccessKeyId=old_id)
print(f"rotated {profile}: {old_id} -> {new['AccessKeyId']}")
